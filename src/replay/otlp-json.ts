/**
 * Parsing OTLP/JSON traces into flat spans: one `TracesData` / `ExportTraceServiceRequest` object, one
 * per line (the OTel Collector's file exporter, or bodies sent to `/v1/traces`), or Jaeger's
 * `/api/v3/traces` response (the same shape under `result`, possibly one `{"result": …}` per line).
 * `LogsData` lines among them (`resourceLogs`) are passed over.
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
  const reader = new OtlpJsonReader(label);
  reader.push(text);
  return reader.end();
}

/**
 * Parses OTLP/JSON as it arrives, chunk by chunk. JSON lines are parsed line by line, so only the spans
 * are held, never the text; a source whose first line is not a JSON value on its own (one object,
 * pretty-printed) is held until {@link OtlpJsonReader.end} and parsed whole. Throws
 * {@link ReplayInputError} as {@link parseOtlpJson} does.
 */
export class OtlpJsonReader {
  readonly #label: string;
  readonly #spans = new Map<string, RecordedSpan>();
  #mode: 'undecided' | 'lines' | 'whole' = 'undecided';
  /** The text not parsed yet: the unfinished line, or everything while undecided or whole. */
  #pending = '';
  /** Where in `#pending` the search for the next line break resumes (no text is scanned twice). */
  #scanFrom = 0;
  /** The number of lines already taken out of `#pending`. */
  #linesDone = 0;
  /**
   * JSON lines: the first document, held until a second one shows the source has several lines (until
   * then, a source of one object on one line is named in messages as a whole, without a line number).
   */
  #first: { value: Json; line: number } | undefined;
  #documents = 0;

  readonly #keep: (span: RecordedSpan) => boolean;

  /** `keep` picks the spans worth holding (replay holds only tool calls and their phases); default all. */
  constructor(label: string, keep: (span: RecordedSpan) => boolean = () => true) {
    this.#label = label;
    this.#keep = keep;
  }

  /** Adds the next piece of text. */
  push(text: string): void {
    try {
      this.#pending += text;
    } catch (error) {
      // V8 strings stop at about 512 MiB: one document (or one line) that long cannot be parsed at all.
      throw new ReplayInputError(
        `${this.#label}: one JSON document (or line) is longer than a JavaScript string can hold; write one OTLP/JSON object per line instead`,
        { cause: error },
      );
    }
    if (this.#mode !== 'whole') this.#takeLines();
  }

  /** The spans of everything pushed; throws when the text is not OTLP/JSON or ends mid-document. */
  end(): RecordedSpan[] {
    if (this.#mode === 'lines') {
      this.#line(this.#pending, this.#linesDone + 1);
      // Still held: the only document, named as a whole source is.
      const only = this.#first?.value;
      if (this.#first !== undefined) for (const item of Array.isArray(only) ? (only as Json[]) : [only]) this.#add(item, undefined);
    } else {
      for (const { value, line } of splitDocuments(this.#pending, this.#label, this.#linesDone)) this.#add(value, line);
    }
    this.#pending = '';
    return [...this.#spans.values()];
  }

  #takeLines(): void {
    let start = 0;
    for (let newline = this.#pending.indexOf('\n', this.#scanFrom); newline !== -1; newline = this.#pending.indexOf('\n', start)) {
      const line = this.#pending.slice(start, newline);
      if (this.#mode === 'undecided') {
        if (line.trim() === '') {
          start = newline + 1;
          this.#linesDone += 1;
          continue;
        }
        // The first non-empty line decides: a JSON value on its own makes the source JSON lines.
        if (!isJson(line)) {
          this.#mode = 'whole';
          break;
        }
        this.#mode = 'lines';
      }
      this.#linesDone += 1;
      this.#line(line, this.#linesDone);
      start = newline + 1;
    }
    if (start > 0) this.#pending = this.#pending.slice(start);
    this.#scanFrom = this.#mode === 'whole' ? 0 : this.#pending.length;
  }

  #line(text: string, line: number): void {
    const trimmed = text.trim();
    if (trimmed === '') return;
    let value: Json;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw badLine(this.#label, line, error);
    }
    this.#documents += 1;
    if (this.#documents === 1) {
      this.#first = { value, line };
      return;
    }
    if (this.#first !== undefined) {
      this.#addLine(this.#first.value, this.#first.line);
      this.#first = undefined;
    }
    this.#addLine(value, line);
  }

  #addLine(value: Json, line: number): void {
    if (Array.isArray(value)) for (const item of value as Json[]) this.#add(item, line);
    else this.#add(value, line);
  }

  #add(value: Json, line: number | undefined): void {
    const where = line === undefined ? this.#label : `${this.#label}: line ${line}`;
    for (const span of spansOfDocument(value, where)) if (this.#keep(span)) this.#spans.set(`${span.traceId}/${span.spanId}`, span);
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One JSON value (an array of documents counts as several), else one per non-empty line. `linesBefore`
 * is the number of lines already taken out before `text`.
 */
function splitDocuments(text: string, label: string, linesBefore: number): { value: Json; line: number | undefined }[] {
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
      documents.push({ value: JSON.parse(line), line: linesBefore + index + 1 });
    } catch (error) {
      if (documents.length === 0) {
        throw new ReplayInputError(`${label}: not JSON, neither one object nor one object per line (${message(wholeError)})`);
      }
      throw badLine(label, linesBefore + index + 1, error);
    }
  }
  return documents;
}

function badLine(label: string, line: number, error: unknown): ReplayInputError {
  return new ReplayInputError(`${label}: line ${line} is not valid JSON, truncated? (${message(error)})`);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function spansOfDocument(document: Json, where: string): RecordedSpan[] {
  if (!isObject(document)) throw new ReplayInputError(`${where}: not OTLP/JSON traces (expected an object with resourceSpans)`);
  // Log records written beside the traces (a Collector file exporter with a logs pipeline, or decision
  // records as log events): the calls and their phases' decisions are on the spans, so a logs document
  // holds nothing replay needs and is passed over.
  if (!('resourceSpans' in document) && Array.isArray(document['resourceLogs'])) return [];
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
