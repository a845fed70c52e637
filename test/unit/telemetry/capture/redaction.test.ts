/** Which keys have their captured values redacted: the built-in list, plus the user's keys, never fewer. */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactionMatcher } from '../../../../src/telemetry/capture/redaction.js';

describe('redactionMatcher', () => {
  const defaults = redactionMatcher([]);

  it('redacts the usual secret keys anywhere in the key, ignoring case', () => {
    for (const key of ['password', 'dbPassword', 'X-Api-Key', 'api_key', 'refresh_token', 'Authorization', 'cookie', 'clientSecret', 'private_key', 'passphrase', 'credentials']) {
      expect(defaults(key), key).toBe(true);
    }
  });

  it("redacts `auth` only as the whole key, so `author` stays visible", () => {
    expect(defaults('auth')).toBe(true);
    expect(defaults('AUTH')).toBe(true);
    expect(defaults('author')).toBe(false);
    expect(defaults('query')).toBe(false);
  });

  it("adds the user's strings to the defaults, taken literally", () => {
    const redacts = redactionMatcher(['ssn', 'a.b']);
    expect(redacts('userSsn')).toBe(true);
    expect(redacts('password')).toBe(true);
    expect(redacts('a.b')).toBe(true);
    expect(redacts('axb')).toBe(false);
  });

  it("tests the user's RegExps as given, and a g flag does not make them match every other time", () => {
    const redacts = redactionMatcher([/^x-internal-/g]);
    expect([redacts('x-internal-id'), redacts('x-internal-id'), redacts('x-internal-id')]).toEqual([true, true, true]);
    expect(redacts('X-Internal-id')).toBe(false);
    expect(redacts('token')).toBe(true);
  });

  it('replaces a redacted value with a visible marker', () => {
    expect(REDACTED).toBe('[REDACTED]');
  });
});
