/**
 * The chain, exactly as docs/receipts.md states it so that anyone can verify a file without toolhooks:
 * `hash` = hex SHA-256 of `prev + "\n" + JCS(record without hash)`, the first `prev` 64 zeros; a head's
 * `sig` is the base64url Ed25519 signature of `JCS({ v, type, stream, seq, hash })`; `key_id` the first 16
 * hex characters of the SHA-256 of the raw 32-byte public key.
 * @internal
 */
import { createHash, createHmac, createPublicKey, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { canonicalArgsJson, canonicalJson } from './canonical-json.js';

/** The `prev` of a stream's first record. */
export const GENESIS = '0'.repeat(64);

/** The record format's version. */
export const RECEIPT_VERSION = 1;

/** The hash of a record (given without its `hash`), chained from `prev`. */
export function recordHash(prev: string, record: Readonly<Record<string, unknown>>): string {
  return chainHash(prev, canonicalJson(record));
}

/** The hash of a record whose canonical JSON is `text`, chained from `prev`. */
export function chainHash(prev: string, text: string): string {
  return createHash('sha256').update(`${prev}\n${text}`, 'utf8').digest('hex');
}

/** `sha256:<hex>` of the arguments' canonical JSON, or `hmac-sha256:<hex>` keyed with `key`. */
export function argsDigest(args: unknown, key: Uint8Array | undefined): string {
  const text = canonicalArgsJson(args);
  if (key === undefined) return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
  return `hmac-sha256:${createHmac('sha256', key).update(text, 'utf8').digest('hex')}`;
}

/** What a head signs. */
function headPayload(stream: string, seq: number, hash: string): string {
  return canonicalJson({ v: RECEIPT_VERSION, type: 'head', stream, seq, hash });
}

/** The key id of an Ed25519 public key (or of the public half of a private one). */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x ?? '', 'base64url');
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

/** The base64url Ed25519 signature of a head's payload. */
export function signHead(privateKey: KeyObject, stream: string, seq: number, hash: string): string {
  return sign(null, Buffer.from(headPayload(stream, seq, hash), 'utf8'), privateKey).toString('base64url');
}

/** Whether `sig` is a valid signature of the head by `publicKey`; false for any malformed signature. */
export function headSignatureValid(publicKey: KeyObject, stream: string, seq: number, hash: string, sig: string): boolean {
  try {
    return verify(null, Buffer.from(headPayload(stream, seq, hash), 'utf8'), publicKey, Buffer.from(sig, 'base64url'));
  } catch {
    return false;
  }
}
