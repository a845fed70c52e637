/**
 * Reading the Ed25519 keys the receipt hook signs with and `verifyReceipts` checks with: a KeyObject, PEM
 * text, or the path of a PEM file. Every failure names what was given and what was expected.
 * @internal
 */
import { readFileSync } from 'node:fs';
import { KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import { errorMessage } from '../internal/describe.js';

/** The private key to sign heads with: an Ed25519 private KeyObject, PEM text, or a PEM file's path. */
export function readSigningKey(given: unknown, where: string): KeyObject {
  const key = readKey(given, where, 'private');
  if (key.type !== 'private') throw new TypeError(`${where}: signingKey must be an Ed25519 private key, got a ${key.type} key`);
  return key;
}

/** The public key to check heads with: an Ed25519 KeyObject (a private one gives its public half), PEM text, or a PEM file's path. */
export function readPublicKey(given: unknown, where: string): KeyObject {
  const key = readKey(given, where, 'public');
  return key.type === 'private' ? createPublicKey(key) : key;
}

function readKey(given: unknown, where: string, wanted: 'private' | 'public'): KeyObject {
  const option = wanted === 'private' ? 'signingKey' : 'publicKey';
  let key: KeyObject;
  if (given instanceof KeyObject) {
    key = given;
  } else if (typeof given === 'string' && given !== '') {
    const fromFile = !given.includes('-----BEGIN');
    let pem = given;
    if (fromFile) {
      try {
        pem = readFileSync(given, 'utf8');
      } catch (error) {
        throw new TypeError(`${where}: cannot read the ${option} file ${JSON.stringify(given)}: ${errorMessage(error)}`, { cause: error });
      }
    }
    const named = fromFile ? `the ${option} file ${JSON.stringify(given)}` : `the ${option} PEM`;
    try {
      key = wanted === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
    } catch (error) {
      throw new TypeError(`${where}: ${named} is not a PEM ${wanted === 'private' ? 'private' : 'public or private'} key: ${errorMessage(error)}`, { cause: error });
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new TypeError(`${where}: ${named} is a ${key.asymmetricKeyType ?? 'secret'} key; receipts need Ed25519`);
    return key;
  } else {
    throw new TypeError(`${where}: ${option} must be an Ed25519 KeyObject, PEM text or the path of a PEM file`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError(`${where}: ${option} is a ${key.asymmetricKeyType ?? 'secret'} key; receipts need Ed25519`);
  return key;
}
