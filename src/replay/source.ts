/**
 * Reading a replay source: a file, an http(s) URL, or standard input, in chunks and never past a byte
 * bound. JSON lines are parsed as they arrive, and only the spans replay reads (tool calls and their
 * phases) are held; one big object is held whole up to the bound. Nothing is replayed before the whole
 * source was read, so a failure never leaves a replay half done.
 * @internal
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { errorMessage } from '../internal/describe.js';
import { ReplayInputError } from './input-error.js';
import { OtlpJsonReader, type RecordedSpan } from './otlp-json.js';
import { isReplaySpan } from './recorded-calls.js';

const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** The most bytes a source may hold unless `maxSourceBytes` (`--max-bytes`) says otherwise: 256 MiB. */
export const DEFAULT_MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/** How much of an HTTP error body is read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** How a source is read. */
interface SourceLimits {
  readonly fetchTimeoutMs?: number | undefined;
  readonly maxSourceBytes?: number | undefined;
}

/** True for `http:` and `https:` URLs (the only remote sources). */
export function isUrlSource(source: string | URL): boolean {
  if (source instanceof URL) return source.protocol === 'http:' || source.protocol === 'https:';
  return /^https?:\/\//i.test(source);
}

/**
 * Reads the whole source and returns its spans; throws {@link ReplayInputError} naming the source and
 * the problem (unreadable, not OTLP/JSON, larger than `maxSourceBytes`).
 */
export async function readSourceSpans(source: string | URL, limits: SourceLimits = {}): Promise<RecordedSpan[]> {
  const maxBytes = limits.maxSourceBytes ?? DEFAULT_MAX_SOURCE_BYTES;
  if (source instanceof URL ? source.href === '' : typeof source !== 'string' || source === '') {
    throw new ReplayInputError('replay: source must be a file path, an http(s) URL or "-" for standard input');
  }
  const opened = await openSource(source, limits.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS, maxBytes);
  const reader = new OtlpJsonReader(opened.label, isReplaySpan);
  const decoder = new TextDecoder('utf-8');
  let read = 0;
  try {
    for await (const chunk of opened.bytes) {
      read += chunk.byteLength;
      if (read > maxBytes) throw tooLarge(opened.label, maxBytes, `more than ${maxBytes} bytes`);
      reader.push(decoder.decode(chunk, { stream: true }));
    }
  } catch (error) {
    if (error instanceof ReplayInputError) throw error;
    throw new ReplayInputError(`${opened.label}: ${opened.readFailure} (${errorMessage(error)})`, { cause: error });
  } finally {
    await opened.close();
  }
  reader.push(decoder.decode());
  return reader.end();
}

/** An opened source: its bytes, the label used in messages, and what to say when reading fails. */
interface OpenedSource {
  readonly label: string;
  readonly bytes: AsyncIterable<Uint8Array>;
  readonly readFailure: string;
  close(): Promise<void>;
}

function tooLarge(label: string, maxBytes: number, size: string): ReplayInputError {
  return new ReplayInputError(
    `${label}: holds ${size}, past maxSourceBytes (${maxBytes}); replay a shorter time window, or raise the bound (--max-bytes)`,
  );
}

async function openSource(source: string | URL, fetchTimeoutMs: number, maxBytes: number): Promise<OpenedSource> {
  if (isUrlSource(source)) return openUrl(new URL(source), fetchTimeoutMs, maxBytes);
  if (source instanceof URL) {
    if (source.protocol !== 'file:') throw new ReplayInputError(`${source.href}: only file, http and https URLs can be replayed`);
    return openFile(source, source.href, maxBytes);
  }
  if (source === '-') {
    return { label: 'standard input', bytes: process.stdin, readFailure: 'cannot read standard input', close: async () => undefined };
  }
  return openFile(source, source, maxBytes);
}

async function openFile(path: string | URL, label: string, maxBytes: number): Promise<OpenedSource> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw new ReplayInputError(`${label}: cannot read the file (${errorMessage(error)})`, { cause: error });
  }
  // A regular file says its size up front; a pipe or a device (size 0) is counted as it is read.
  if (size > maxBytes) throw tooLarge(label, maxBytes, `${size} bytes`);
  const stream = createReadStream(path);
  return {
    label,
    bytes: stream,
    readFailure: 'cannot read the file',
    close: async () => void stream.destroy(),
  };
}

async function openUrl(url: URL, timeoutMs: number, maxBytes: number): Promise<OpenedSource> {
  // Credentials in the URL are never echoed back in messages.
  const label = url.username !== '' || url.password !== '' ? `${url.protocol}//${url.host}${url.pathname}` : url.href;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = (error as { cause?: unknown } | null)?.cause;
    const detail = cause === undefined ? errorMessage(error) : `${errorMessage(error)}: ${errorMessage(cause)}`;
    throw new ReplayInputError(`${label}: unreachable (${detail})`, { cause: error });
  }
  const body = response.body;
  const close = async (): Promise<void> => {
    await body?.cancel().catch(() => undefined);
  };
  if (!response.ok) {
    const said = errorBodyMessage(await readPrefix(body, MAX_ERROR_BODY_BYTES));
    await close();
    throw new ReplayInputError(`${label}: answered HTTP ${response.status}${said === undefined ? '' : ` (${said})`}`);
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isSafeInteger(length) && length > maxBytes) {
    await close();
    throw tooLarge(label, maxBytes, `${length} bytes (Content-Length)`);
  }
  return { label, bytes: body ?? emptyBytes(), readFailure: 'the response could not be read', close };
}

async function* emptyBytes(): AsyncIterable<Uint8Array> {}

/** The first `max` bytes of a body as text ('' when it cannot be read). */
async function readPrefix(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (body === null) return '';
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let read = 0;
  try {
    for await (const chunk of body) {
      text += decoder.decode(chunk.subarray(0, Math.max(0, max - read)), { stream: true });
      read += chunk.byteLength;
      if (read >= max) break;
    }
  } catch {
    // an error body that cannot be read still gives the status
  }
  return text;
}

/** The `error.message` of a JSON error body such as Jaeger's `{"error":{"message":"trace not found"}}`. */
function errorBodyMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } } | null;
    const message = body?.error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
