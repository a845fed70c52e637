/**
 * From a PolicyInput to a Cedar request's parts: the principal's entity uid from Cedar's entity syntax
 * (`User::"alice"`), and the context as values Cedar can hold. Cedar has no null and no non-integer
 * numbers: null and undefined are left out, and a number that is not a 64-bit integer is passed as its
 * decimal string. An object with a `__entity` or `__extn` key would be read by Cedar as an entity
 * reference or an extension value: from a tool's arguments, it is passed as its JSON string instead, so an
 * argument can never name an entity. See docs/policies.md, "Cedar".
 * @internal
 */
import { quoteValue } from '../internal/describe.js';

/** A value in Cedar's JSON value format. */
export type CedarValue = boolean | number | string | CedarValue[] | { [key: string]: CedarValue };

/** Cedar's entity uid in its JSON form. */
export interface EntityUid {
  readonly type: string;
  readonly id: string;
}

/** `User::"alice"`, `App::Agent::"ops bot"` → `{ type, id }`; a TypeError naming the value otherwise. */
export function parseEntityUid(text: unknown, what: string): EntityUid {
  if (typeof text === 'string') {
    const at = text.indexOf('::"');
    if (at > 0 && text.endsWith('"')) {
      const type = text.slice(0, at);
      try {
        const id: unknown = JSON.parse(text.slice(at + 2));
        if (typeof id === 'string' && /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$/.test(type)) return { type, id };
      } catch {
        // falls through to the error below
      }
    }
  }
  throw new TypeError(`${what} must be an entity in Cedar's syntax, such as 'User::"alice"', got ${quoteValue(text)}`);
}

/** A value (plain JSON data: the input is parsed JSON) as Cedar can hold it; undefined when it is left out (null). */
export function cedarValue(value: unknown): CedarValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : String(value);
    case 'object':
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        const items: CedarValue[] = [];
        for (const item of value as unknown[]) {
          const converted = cedarValue(item);
          if (converted !== undefined) items.push(converted);
        }
        return items;
      }
      return cedarRecord(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

/** A record as Cedar can hold it; one that Cedar would read as an escape (`__entity`, `__extn`) as its JSON string. */
export function cedarRecord(record: Record<string, unknown>): CedarValue {
  if (Object.prototype.hasOwnProperty.call(record, '__entity') || Object.prototype.hasOwnProperty.call(record, '__extn')) {
    return JSON.stringify(record);
  }
  const out: Record<string, CedarValue> = {};
  for (const [key, value] of Object.entries(record)) {
    const converted = cedarValue(value);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}
