/**
 * Reading a replay source: a file, an http(s) URL, or standard input. Everything is read whole before
 * any of it is parsed, so a failure never leaves a replay half done.
 * @internal
 */
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../internal/describe.js';
import { ReplayInputError } from './input-error.js';

const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** A source's text and the label used in messages about it. */
export interface LoadedSource {
  readonly label: string;
  readonly text: string;
}

/** True for `http:` and `https:` URLs (the only remote sources). */
export function isUrlSource(source: string | URL): boolean {
  if (source instanceof URL) return source.protocol === 'http:' || source.protocol === 'https:';
  return /^https?:\/\//i.test(source);
}

/** Reads the whole source; throws {@link ReplayInputError} naming the source and the problem. */
export async function loadSource(source: string | URL, fetchTimeoutMs = DEFAULT_FETCH_TIMEOUT_MS): Promise<LoadedSource> {
  if (source instanceof URL ? source.href === '' : typeof source !== 'string' || source === '') {
    throw new ReplayInputError('replay: source must be a file path, an http(s) URL or "-" for standard input');
  }
  if (isUrlSource(source)) return fetchSource(new URL(source), fetchTimeoutMs);
  if (source instanceof URL) {
    if (source.protocol !== 'file:') throw new ReplayInputError(`${source.href}: only file, http and https URLs can be replayed`);
    return readSource(source, source.href);
  }
  if (source === '-') return { label: 'standard input', text: await readStdin() };
  return readSource(source, source);
}

async function readSource(path: string | URL, label: string): Promise<LoadedSource> {
  try {
    return { label, text: await readFile(path, 'utf8') };
  } catch (error) {
    throw new ReplayInputError(`${label}: cannot read the file (${errorMessage(error)})`, { cause: error });
  }
}

async function fetchSource(url: URL, timeoutMs: number): Promise<LoadedSource> {
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
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ReplayInputError(`${label}: the response could not be read (${errorMessage(error)})`, { cause: error });
  }
  if (!response.ok) {
    const said = errorBodyMessage(text);
    throw new ReplayInputError(`${label}: answered HTTP ${response.status}${said === undefined ? '' : ` (${said})`}`);
  }
  return { label, text };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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
