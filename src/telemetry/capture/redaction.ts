/**
 * Which keys have their values redacted in captured arguments and results: the built-in list and the
 * matcher that adds a user's `redactKeys` to it (never replacing it). See docs/capture.md.
 * @internal
 */
import { withoutStatefulFlags } from '../../internal/describe.js';

/**
 * Patterns of the keys whose values are always redacted, matched anywhere in the key and ignoring case
 * (`X-Api-Key`, `refresh_token`, `dbPassword`). `auth` alone matches only the whole key, so that
 * `author` stays visible while Node's `http.request({ auth: 'user:pass' })` does not leak.
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
  'secret',
  'token',
  'api[-_]?key',
  'authorization',
  '^auth$',
  'cookie',
  'credential',
  'private[-_]?key',
]);

/** What replaces a redacted value. @example `{"password":"[REDACTED]"}` */
export const REDACTED = '[REDACTED]';

const REGEXP_SPECIALS = /[.*+?^${}()|[\]\\]/g;

/**
 * Whether a key is redacted: one combined case-insensitive RegExp for the defaults and string patterns
 * (taken literally), then the user's RegExps as given (without `g`/`y`, which would make them stateful).
 *
 * @example
 * ```ts
 * const redacts = redactionMatcher(['ssn', /^x-internal-/i]);
 * redacts('userSsn'); // true
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
  if (patterns.length === 0) return (key) => combined.test(key);
  return (key) => {
    if (combined.test(key)) return true;
    for (const pattern of patterns) if (pattern.test(key)) return true;
    return false;
  };
}
