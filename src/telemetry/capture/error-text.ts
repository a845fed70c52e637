/**
 * Error text safe to record: the one description of a thrown value (type, message, stack) that every
 * signal uses — span statuses, `exception.*` event attributes, observers' failure records, log records —
 * bounded to `maxLength` and scrubbed of the call's argument values. Framework errors put whole tool
 * inputs into their messages (LangChain's `ToolInvocationError` quotes the kwargs as JSON, the AI SDK's
 * `InvalidToolInputError` the value that failed its schema): with capture off no argument value may be
 * recorded, and with capture on no value under a redacted key. See docs/capture.md.
 * @internal
 */
import { errorClassName, errorMessage } from '../../internal/describe.js';
import type { RecordedError } from '../../hook.js';
import { redactedValueRanges } from './quoted-keys.js';
import { REDACTED } from './redaction.js';
import { isHighSurrogate, isLowSurrogate, truncatedMarker } from './truncate.js';

/** What telemetry records of an error (the public {@link RecordedError}). */
type ErrorDescription = RecordedError;

/** Shorter values are not scrubbed: they carry little, and replacing them would garble every message. */
const MIN_SCRUBBED_LENGTH = 3;
/** More argument values than this, or deeper nesting, and the message is withheld rather than half-scrubbed. */
const MAX_VALUES = 1000;
const MAX_DEPTH = 12;
/** A value found more often than this in one message (a repetitive value) withholds the message. */
const MAX_OCCURRENCES = 64;

/** What replaces a message that could not be scrubbed within the bounds above. */
const WITHHELD = '[message withheld: it may contain tool arguments]';

/** How the capture options decide what is scrubbed. */
interface ScrubPolicy {
  /** With capture of arguments off, every argument value is scrubbed; with it on, those under redacted keys. */
  readonly args: boolean;
  readonly maxLength: number;
  isRedactedKey(key: string): boolean;
}

/** The texts to remove from a message, longest first; undefined when there are too many to check. */
function scrubTargets(argsList: readonly unknown[], policy: ScrubPolicy): string[] | undefined {
  const found = new Set<string>();
  const seen = new Set<object>();
  let overflow = false;
  const add = (text: string): void => {
    if (text.length < MIN_SCRUBBED_LENGTH) return;
    found.add(text);
    // As it reads inside JSON: the way LangChain and the AI SDK quote inputs in their messages.
    const quoted = JSON.stringify(text).slice(1, -1);
    if (quoted !== text) found.add(quoted);
    if (found.size > MAX_VALUES) overflow = true;
  };
  const walk = (value: unknown, secret: boolean, depth: number): void => {
    if (overflow) return;
    switch (typeof value) {
      case 'string':
        if (secret || !policy.args) add(value);
        return;
      case 'number':
      case 'bigint':
        if (secret || !policy.args) add(String(value));
        return;
      case 'object':
        break;
      default:
        return;
    }
    if (value === null || seen.has(value)) return;
    if (depth >= MAX_DEPTH || sizeOf(value) > MAX_VALUES) {
      overflow = true;
      return;
    }
    seen.add(value);
    for (const [key, member] of members(value)) walk(member, secret || (key !== undefined && policy.isRedactedKey(key)), depth + 1);
  };
  try {
    for (const args of argsList) walk(args, false, 0);
  } catch {
    return undefined; // a Proxy whose traps throw: what it holds cannot be known, so nothing is recorded
  }
  if (overflow) return undefined;
  return [...found].sort((a, b) => b.length - a.length);
}

/** How many members a container has, read without listing them (a 10-million-item array stays cheap). */
function sizeOf(value: object): number {
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  return 0; // plain objects: their keys are listed once, and each value counts towards MAX_VALUES
}

/** Entries of a container as [key, value]; own data properties only, so that no getter runs. */
function members(value: object): Iterable<readonly [string | undefined, unknown]> {
  if (value instanceof Map) return [...value].map(([key, member]) => [typeof key === 'string' ? key : undefined, member] as const);
  if (value instanceof Set) return [...value].map((member) => [undefined, member] as const);
  if (ArrayBuffer.isView(value)) return [];
  const entries: (readonly [string | undefined, unknown])[] = [];
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && 'value' in descriptor) entries.push([Array.isArray(value) ? undefined : key, descriptor.value]);
  }
  return entries;
}

/**
 * `text` without any of `targets`, nor the values quoted after a redacted key (`"password":"…"`,
 * `token=…`: text that quotes arguments it could not parse), cut to `maxLength` with the usual marker.
 * Only occurrences that start inside the kept part matter, so each target is searched in
 * `maxLength + its length` characters and keys in the kept part: the cost is linear in the targets'
 * total length and `maxLength`, whatever the message's size.
 */
function scrub(text: string, targets: readonly string[], policy: ScrubPolicy): string {
  const maxLength = policy.maxLength;
  let keep = Math.min(text.length, maxLength);
  if (keep < text.length && keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1)) && isLowSurrogate(text.charCodeAt(keep))) keep -= 1;
  const ranges = redactedValueRanges(keep < text.length ? text.slice(0, keep) : text, policy.isRedactedKey);
  for (const target of targets) {
    const region = text.length > keep + target.length ? text.slice(0, keep + target.length - 1) : text;
    let count = 0;
    for (let at = region.indexOf(target); at !== -1 && at < keep; at = region.indexOf(target, at + 1)) {
      if ((count += 1) > MAX_OCCURRENCES) return WITHHELD;
      ranges.push([at, at + target.length]);
    }
  }
  let out = '';
  if (ranges.length === 0) {
    out = text.slice(0, keep);
  } else {
    ranges.sort((a, b) => a[0] - b[0]);
    let position = 0;
    for (const [start, end] of ranges) {
      if (end <= position) continue;
      if (start > position) out += text.slice(position, start);
      if (start >= position) out += REDACTED;
      position = end;
    }
    if (position < keep) out += text.slice(position, keep);
  }
  return keep < text.length ? out + truncatedMarker(text.length - keep) : out;
}

/**
 * One call's error-text scrubber: targets are collected when the first error is described, and again
 * only after the call ran with other arguments (a Redirect's).
 */
export class ErrorScrubber {
  #targets: string[] | undefined | null = null;
  readonly #argsList: unknown[];

  constructor(
    private readonly policy: ScrubPolicy,
    argsList: readonly unknown[],
  ) {
    this.#argsList = [...argsList];
  }

  /** Adds arguments the call ran with, so that their values are scrubbed too. */
  add(args: unknown): void {
    if (this.#argsList.includes(args)) return;
    this.#argsList.push(args);
    this.#targets = null;
  }

  /** `text` bounded and scrubbed; never throws. */
  text(text: string): string {
    try {
      if (this.#targets === null) this.#targets = scrubTargets(this.#argsList, this.policy);
      const targets = this.#targets;
      if (targets === undefined) return WITHHELD;
      return scrub(text, targets, this.policy);
    } catch {
      return WITHHELD;
    }
  }

  /** The recorded description of anything thrown; never throws. */
  describe(error: unknown): ErrorDescription {
    try {
      if (error instanceof Error) {
        const stack = readStack(error);
        const type = errorClassName(error) ?? 'Error';
        const message = this.text(errorMessage(error));
        return stack === undefined ? { type, message } : { type, message, stacktrace: this.text(stack) };
      }
    } catch {
      // a thrown Proxy or an Error with hostile getters: described with what is safe to read
    }
    return { type: error === null ? 'null' : typeof error, message: this.text(thrownText(error)) };
  }
}

/** The string form of a thrown non-Error; an object whose toString throws reads as `[object Object]`. */
function thrownText(error: unknown): string {
  try {
    return typeof error === 'string' ? error : String(error);
  } catch {
    try {
      return Object.prototype.toString.call(error);
    } catch {
      return '[unprintable error]';
    }
  }
}

function readStack(error: Error): string | undefined {
  try {
    return typeof error.stack === 'string' ? error.stack : undefined;
  } catch {
    return undefined;
  }
}
