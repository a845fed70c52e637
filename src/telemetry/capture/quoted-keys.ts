/**
 * Values that follow a redacted key in free text: error messages quote arguments that never parsed
 * (the AI SDK's `InvalidToolInputError` quotes the model's raw, invalid JSON), so the scrubber cannot
 * know their values from the arguments. It looks for the two forms such text takes — `"<key>":` (JSON,
 * also escaped inside a JSON string: `\"<key>\":`) and `<key>=` (query strings, `key=value` logs) —
 * and reports where each redacted key's value lies. One pass, bounded: each character of the text is
 * looked at a bounded number of times, whatever it holds. See docs/capture.md.
 * @internal
 */
import { REDACTED } from './redaction.js';

/** Keys longer than this are not looked for (a key is a name, not a paragraph). */
const MAX_KEY_LENGTH = 128;

/** `"key":` or `\"key\":`, with the spaces JSON allows; the key is one line without quotes or backslashes. */
const JSON_KEY = new RegExp(`(\\\\?)"([^"\\\\\\n]{1,${MAX_KEY_LENGTH}})\\\\?"[ \\t]*:[ \\t]*`, 'g');

/** Where a `key=` value ends: at a separator, a quote or a bracket. */
const ASSIGNED_VALUE_END = ' \t\r\n&;,"\'<>()[]{}';

/**
 * The ranges `[start, end)` of the values under redacted keys in `text`, in no particular order; a
 * string value's range is its content (the quotes stay), any other value its whole token — an object
 * or array to its closing bracket. A value that runs past the end of `text` ends there.
 */
export function redactedValueRanges(text: string, isRedactedKey: (key: string) => boolean): [number, number][] {
  const ranges: [number, number][] = [];
  JSON_KEY.lastIndex = 0;
  for (let match = JSON_KEY.exec(text); match !== null; match = JSON_KEY.exec(text)) {
    const key = match[2] ?? '';
    if (!isRedactedKey(key)) continue;
    const range = jsonValue(text, JSON_KEY.lastIndex, match[1] === '\\');
    if (range[1] > range[0]) ranges.push(range);
    // Nothing inside a redacted value is looked at again: the scan stays linear.
    JSON_KEY.lastIndex = Math.max(JSON_KEY.lastIndex, range[1]);
  }
  // `key=`: from each `=`, back over the key's characters (never past the previous `=`, nor further
  // than a key's length), so each character is looked at a bounded number of times.
  let after = 0;
  for (let at = text.indexOf('=', after); at !== -1; at = text.indexOf('=', after)) {
    after = at + 1;
    const next = text[at + 1];
    if (next === '=' || next === '>') {
      after = at + 2;
      continue;
    }
    let start = at;
    while (start > 0 && at - start < MAX_KEY_LENGTH && isKeyChar(text.charCodeAt(start - 1))) start -= 1;
    if (start === at || (start > 0 && isKeyChar(text.charCodeAt(start - 1))) || !isRedactedKey(text.slice(start, at))) continue;
    const range = assignedValue(text, at + 1);
    if (range[1] > range[0]) ranges.push(range);
    after = Math.max(after, range[1]);
  }
  return ranges;
}

/**
 * `text` with the value of every redacted key replaced by `[REDACTED]`: what capture records of text
 * that should have been arguments but does not parse (a model's invalid JSON).
 */
export function redactQuotedValues(text: string, isRedactedKey: (key: string) => boolean): string {
  const ranges = redactedValueRanges(text, isRedactedKey);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let position = 0;
  for (const [start, end] of ranges) {
    if (end <= position) continue;
    if (start >= position) out += `${text.slice(position, start)}${REDACTED}`;
    position = end;
  }
  return out + text.slice(position);
}

/** The range of the JSON value at `start`; `escaped`: the JSON is itself inside a JSON string (`\"`). */
function jsonValue(text: string, start: number, escaped: boolean): [number, number] {
  if (escaped && text.startsWith('\\"', start)) {
    const close = text.indexOf('\\"', start + 2);
    return [start + 2, close === -1 ? text.length : close];
  }
  const first = text[start];
  if (first === '"') return [start + 1, stringEnd(text, start + 1)];
  if (first === '{' || first === '[') return [start, containerEnd(text, start)];
  let end = start;
  while (end < text.length && !',}]\n\r \t'.includes(text[end] as string)) end += 1;
  return [start, end];
}

/** The index of the quote that closes a JSON string whose content starts at `from` (the text's end when none). */
function stringEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '"') return index;
  }
  return text.length;
}

/** The index after the bracket that closes the object or array at `start` (the text's end when none). */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') index = stringEnd(text, index + 1);
    else if (char === '{' || char === '[') depth += 1;
    else if ((char === '}' || char === ']') && --depth === 0) return index + 1;
  }
  return text.length;
}

/** The range of a `key=` value at `start`: a quoted one's content, else up to a separator. */
function assignedValue(text: string, start: number): [number, number] {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, start + 1);
    return [start + 1, close === -1 ? text.length : close];
  }
  let end = start;
  while (end < text.length && !ASSIGNED_VALUE_END.includes(text[end] as string)) end += 1;
  return [start, end];
}

/** A `key=` key is letters, digits, `_`, `.` and `-`. */
function isKeyChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2e || code === 0x2d;
}
