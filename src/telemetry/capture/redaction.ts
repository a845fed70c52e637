/**
 * Which keys have their values redacted in captured arguments and results: the built-in list and the
 * matcher that adds a user's `redactKeys` to it (never replacing it). See docs/capture.md.
 * @internal
 */
import { withoutStatefulFlags } from '../../internal/describe.js';

/**
 * Patterns of the keys whose values are always redacted, matched anywhere in the key and ignoring case
 * (`X-Api-Key`, `refresh_token`, `dbPassword`). `auth` alone matches only the whole key, so that
 * `author` stays visible while Node's `http.request({ auth: 'user:pass' })` does not leak. Each is a
 * plain literal or one optional separator: matching stays linear in the key's length.
 *
 * @example
 * ```ts
 * new RegExp(DEFAULT_REDACT_PATTERNS.join('|'), 'i').test('refresh_token'); // true
 * ```
 */
const DEFAULT_REDACT_PATTERNS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'jwt',
  'bearer',
  'api[-_]?key',
  'access[-_]?key',
  'authorization',
  '^auth$',
  'cookie',
  'session[-_]?id',
  'sessid',
  'credential',
  'private[-_]?key',
  'connection[-_]?string',
  'signature',
]);

/**
 * Words that redact a key when they are one of its words (split at `-`, `_`, `.`, spaces and
 * camelCase humps, ignoring case): too short to match anywhere in a key (`pin` is in `spinner`, `dsn`
 * and `ssn` in `className`), they are credentials as words: `basicAuth`, `X-Auth-User`, `auth_header`,
 * `SENTRY_DSN`, `userPin`, `mfa_code`.
 *
 * @example
 * ```ts
 * DEFAULT_REDACT_WORDS.includes('auth'); // true: basicAuth, x-auth; not author
 * ```
 */
const DEFAULT_REDACT_WORDS: readonly string[] = Object.freeze(['auth', 'oauth', 'dsn', 'otp', 'totp', 'mfa', 'pin', 'ssn']);

const WORDS = new Set(DEFAULT_REDACT_WORDS);
const LONGEST_WORD = Math.max(...DEFAULT_REDACT_WORDS.map((word) => word.length));

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}
function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Whether one of the key's words is a {@link DEFAULT_REDACT_WORDS} entry. One pass over the key; words
 * longer than the longest entry are skipped without being built, so a 10 MB key costs one scan.
 */
function hasRedactedWord(key: string): boolean {
  let start = 0;
  const end = key.length;
  for (let index = 0; index <= end; index += 1) {
    const code = index < end ? key.charCodeAt(index) : -1;
    const previous = index > 0 ? key.charCodeAt(index - 1) : -1;
    const separator = code === -1 || !(isLower(code) || isUpper(code) || isDigit(code));
    const hump = isUpper(code) && (isLower(previous) || isDigit(previous));
    if (!separator && !hump) continue;
    const length = index - start;
    if (length > 0 && length <= LONGEST_WORD && WORDS.has(key.slice(start, index).toLowerCase())) return true;
    start = separator ? index + 1 : index;
  }
  return false;
}

/** What replaces a redacted value. @example `{"password":"[REDACTED]"}` */
export const REDACTED = '[REDACTED]';

const REGEXP_SPECIALS = /[.*+?^${}()|[\]\\]/g;

/**
 * Whether a key is redacted: one combined case-insensitive RegExp for the defaults and string patterns
 * (taken literally), the built-in words, then the user's RegExps as given (without `g`/`y`, which
 * would make them stateful).
 *
 * @example
 * ```ts
 * const redacts = redactionMatcher(['iban', /^x-internal-/i]);
 * redacts('userIban'); // true
 * ```
 */
export function redactionMatcher(extra: readonly (string | RegExp)[]): (key: string) => boolean {
  const sources = [...DEFAULT_REDACT_PATTERNS];
  const patterns: RegExp[] = [];
  for (const entry of extra) {
    if (typeof entry === 'string') sources.push(entry.replace(REGEXP_SPECIALS, '\\$&'));
    else patterns.push(withoutStatefulFlags(entry));
  }
  const combined = new RegExp(sources.join('|'), 'i');
  if (patterns.length === 0) return (key) => combined.test(key) || hasRedactedWord(key);
  return (key) => {
    if (combined.test(key) || hasRedactedWord(key)) return true;
    for (const pattern of patterns) if (pattern.test(key)) return true;
    return false;
  };
}
