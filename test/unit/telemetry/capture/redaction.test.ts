/**
 * The built-in redaction list: the common credential key spellings it must cover, the harmless keys
 * it must leave visible. Its cost on huge (attacker-made) keys is measured in bench/capture.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';

const capture = resolveCapture({ args: true });

describe('built-in redaction list', () => {
  it.each([
    'pwd',
    'db_pwd',
    'userPwd',
    'jwt',
    'id_jwt',
    'jwtToken',
    'bearer',
    'bearerToken',
    'sessionId',
    'session_id',
    'session-id',
    'SESSIONID',
    'sessid',
    'PHPSESSID',
    'basicAuth',
    'basic_auth',
    'auth_header',
    'authHeader',
    'x-auth',
    'X-Auth-User',
    'oauth',
    'dsn',
    'sentryDsn',
    'SENTRY_DSN',
    'connectionString',
    'connection_string',
    'access_key',
    'accessKeyId',
    'signature',
    'x-amz-signature',
    'mfa_code',
    'otp',
    'totp',
    'pin',
    'ssn',
  ])('redacts the value under %s', (key) => {
    expect(capture.serialize({ [key]: 'hunter2', other: 'visible' })).toBe(`{${JSON.stringify(key)}:"[REDACTED]","other":"visible"}`);
  });

  it.each(['author', 'authority', 'authentication', 'user', 'path', 'keyboard', 'footprint', 'pinned', 'spinner', 'opinion', 'session', 'sessionStart', 'address'])(
    'keeps the value under %s',
    (key) => {
      expect(JSON.parse(capture.serialize({ [key]: 'v' }))).toEqual({ [key]: 'v' });
    },
  );
});
