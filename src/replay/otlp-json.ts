/**
 * Parsing OTLP/JSON traces into flat spans: one `TracesData` / `ExportTraceServiceRequest` object, one
 * per line (the OTel Collector's file exporter, or bodies sent to `/v1/traces`), or Jaeger's
 * `/api/v3/traces` response (the same shape under `result`, possibly one `{"result": …}` per line).
 * @internal
 */
import { ReplayInputError } from './input-error.js';

/** An attribute value as far as replay needs it. */
type SpanAttributeValue = string | number | boolean;

/** One recorded span, with ids as lower-case hex. */
export interface RecordedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** Nanoseconds since the epoch; 0 when missing. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: ReadonlyMap<string, SpanAttributeValue>;
}

type Json = unknown;

/**
 * Parses the whole text; throws {@link ReplayInputError} naming `label`, the line (for JSON lines) and
 * the problem. Spans that appear twice (the same trace and span id) are kept once.
 */
export function parseOtlpJson(text: string, label: string): RecordedSpan[] {
  const documents = splitDocuments(text, label);
  const spans = new Map<string, RecordedSpan>();
  for (const { value, line } of documents) {
    const where = line === undefined ? label : `${label}: line ${line}`;
    for (const span of spansOfDocument(value, where)) spans.set(`${span.traceId}/${span.spanId}`, span);
  }
  return [...spans.values()];
}

/** One JSON value (an array of documents counts as several), else one per non-empty line. */
function splitDocuments(text: string, label: string): { value: Json; line: number | undefined }[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new ReplayInputError(`${label}: empty, expected OTLP/JSON traces`);
  let whole: Json;
  let wholeError: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch (error) {
    wholeError = error;
  }
  if (wholeError === undefined) {
    return Array.isArray(whole) ? whole.map((value: Json) => ({ value, line: undefined })) : [{ value: whole, line: undefined }];
  }
  const lines = text.split(/\r?\n/);
  const documents: { value: Json; line: number | undefined }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] as string).trim();
    if (line === '') continue;
    try {
      documents.push({ value: JSON.parse(line), line: index + 1 });
    } catch (error) {
      if (documents.length === 0) {
        throw new ReplayInputError(`${label}: not JSON, neither one object nor one object per line (${message(wholeError)})`);
      }
      throw new ReplayInputError(`${label}: line ${index + 1} is not valid JSON, truncated? (${message(error)})`);
    }
  }
  return documents;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function spansOfDocument(document: Json, where: string): RecordedSpan[] {
  if (!isObject(document)) throw new ReplayInputError(`${where}: not OTLP/JSON traces (expected an object with resourceSpans)`);
  let data: Json = document;
  if (!('resourceSpans' in document) && 'result' in document) data = document['result'];
  else if (!('resourceSpans' in document) && isObject(document['error'])) {
    const said = document['error']['message'];
    throw new ReplayInputError(`${where}: the trace store answered an error${typeof said === 'string' ? `: ${said}` : ''}`);
  }
  if (!isObject(data) || !Array.isArray(data['resourceSpans'])) {
    throw new ReplayInputError(`${where}: not OTLP/JSON traces (no resourceSpans array)`);
  }
  const spans: RecordedSpan[] = [];
  data['resourceSpans'].forEach((resource: Json, r: number) => {
    if (!isObject(resource)) throw new ReplayInputError(`${where}: resourceSpans[${r}] is not an object`);
    const scopes = resource['scopeSpans'] ?? resource['instrumentationLibrarySpans'] ?? [];
    if (!Array.isArray(scopes)) throw new ReplayInputError(`${where}: resourceSpans[${r}].scopeSpans is not an array`);
    scopes.forEach((scope: Json, s: number) => {
      const path = `resourceSpans[${r}].scopeSpans[${s}]`;
      if (!isObject(scope)) throw new ReplayInputError(`${where}: ${path} is not an object`);
      const list = scope['spans'] ?? [];
      if (!Array.isArray(list)) throw new ReplayInputError(`${where}: ${path}.spans is not an array`);
      list.forEach((span: Json, index: number) => spans.push(readSpan(span, `${where}: ${path}.spans[${index}]`)));
    });
  });
  return spans;
}

function readSpan(span: Json, where: string): RecordedSpan {
  if (!isObject(span)) throw new ReplayInputError(`${where} is not an object`);
  const traceId = readId(span['traceId'], 16);
  const spanId = readId(span['spanId'], 8);
  if (traceId === undefined || spanId === undefined) {
    throw new ReplayInputError(`${where} has no valid traceId/spanId (hex or base64 expected)`);
  }
  const parent = span['parentSpanId'];
  const parentSpanId = parent === undefined || parent === null || parent === '' ? '' : (readId(parent, 8) ?? '');
  return {
    traceId,
    spanId,
    parentSpanId,
    name: typeof span['name'] === 'string' ? span['name'] : '',
    startNs: readNanos(span['startTimeUnixNano']),
    endNs: readNanos(span['endTimeUnixNano']),
    attributes: readAttributes(span['attributes']),
  };
}

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** OTLP/JSON writes ids as hex; some protobuf-JSON mappings write base64. Both become lower-case hex. */
function readId(value: Json, bytes: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length === bytes * 2 && HEX.test(value)) return value.toLowerCase();
  if (BASE64.test(value)) {
    const decoded = Buffer.from(value, 'base64');
    if (decoded.length === bytes) return decoded.toString('hex');
  }
  return undefined;
}

function readNanos(value: Json): bigint {
  try {
    if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  } catch {
    // not a time: treated as unknown
  }
  return 0n;
}

function readAttributes(list: Json): Map<string, SpanAttributeValue> {
  const attributes = new Map<string, SpanAttributeValue>();
  if (!Array.isArray(list)) return attributes;
  for (const entry of list as Json[]) {
    if (!isObject(entry) || typeof entry['key'] !== 'string' || !isObject(entry['value'])) continue;
    const value = readValue(entry['value']);
    if (value !== undefined) attributes.set(entry['key'], value);
  }
  return attributes;
}

/** The scalar kinds of OTLP's AnyValue; arrays, maps and bytes are not needed by replay. */
function readValue(value: Record<string, Json>): SpanAttributeValue | undefined {
  const text = value['stringValue'];
  if (typeof text === 'string') return text;
  const flag = value['boolValue'];
  if (typeof flag === 'boolean') return flag;
  const int = value['intValue'];
  if (typeof int === 'number') return int;
  if (typeof int === 'string' && /^-?\d+$/.test(int)) return Number(int);
  const double = value['doubleValue'];
  if (typeof double === 'number') return double;
  return undefined;
}
