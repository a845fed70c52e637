/**
 * Decodes OTLP export requests (protobuf or OTLP/JSON) with the official OTLP schema and flattens them
 * into shapes a test can assert on.
 *
 * Where the schema comes from, and why: the 0.223 line of `@opentelemetry/otlp-transformer` no longer
 * ships protobufjs decoders (it encodes with a hand-written writer and only decodes export *responses*),
 * no maintained npm package ships the opentelemetry-proto `.proto` files, and vendoring them would copy
 * another project's files. So we load the protobufjs static module that the OpenTelemetry JS project
 * generated from opentelemetry-proto (`build/src/generated/root.js`) out of `@opentelemetry/otlp-transformer`
 * 0.214.0 — the last release whose generated root still covers traces, metrics *and* logs — installed under
 * the dev-only alias `otlp-transformer-0.214`. Only that generated file is loaded, never the old SDK code
 * around it. It is the official schema compiled by the OTel project, so a field we read is a field the
 * exporter wrote by its proto number, not by our own guess. Fields added to OTLP after that schema would
 * be skipped as unknown; nothing we assert on is that recent.
 *
 * OTLP/JSON is decoded per its spec: trace/span ids are hex (not base64 as plain proto3 JSON would have
 * them), 64-bit integers may be strings or numbers, enums are integers, field names lowerCamelCase. After
 * the hex ids are turned into bytes, the JSON object goes through the same schema (`fromObject`) as
 * protobuf, so both encodings are normalised by one code path.
 *
 * @example
 * ```ts
 * const request = decodeExportRequest('traces', body, 'protobuf');
 * const spans = flattenSpans(request, 'protobuf');
 * ```
 */
import { createRequire } from 'node:module';

/** Which OTLP signal an export request carries. */
export type OtlpSignal = 'traces' | 'metrics' | 'logs';

/** How the request body was encoded on the wire. */
export type OtlpEncoding = 'protobuf' | 'json';

/**
 * A decoded OTLP `AnyValue`: `intValue` becomes a number (a bigint beyond 2^53), `bytesValue` a Uint8Array,
 * `arrayValue` an array, `kvlistValue` a plain object, an empty value `null`.
 */
export type OtlpValue = string | number | bigint | boolean | Uint8Array | null | OtlpValue[] | OtlpAttributes;

/** Decoded OTLP attributes (`repeated KeyValue`) as a plain object. */
export interface OtlpAttributes {
  [key: string]: OtlpValue;
}

/** The instrumentation scope an item was recorded under. */
export interface OtlpScope {
  name: string;
  version: string;
  attributes: OtlpAttributes;
}

/** One span event. */
export interface ReceivedSpanEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: OtlpAttributes;
}

/** One span link. */
export interface ReceivedSpanLink {
  traceId: string;
  spanId: string;
  attributes: OtlpAttributes;
}

/**
 * One decoded span. Ids are lowercase hex, times are nanoseconds since the epoch, `kind` and `status.code` are
 * the OTLP enum names (`SPAN_KIND_CLIENT`, `STATUS_CODE_ERROR`) because OTLP span kinds are the API's plus one.
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId: string | undefined;
  traceState: string;
  flags: number;
  name: string;
  kind: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: OtlpAttributes;
  droppedAttributesCount: number;
  events: ReceivedSpanEvent[];
  links: ReceivedSpanLink[];
  status: { code: string; message: string };
  resource: OtlpAttributes;
  scope: OtlpScope;
  encoding: OtlpEncoding;
}

/** The kinds of OTLP metric data. */
export type ReceivedMetricType = 'sum' | 'gauge' | 'histogram' | 'exponentialHistogram' | 'summary' | 'unknown';

/** One exponential-histogram bucket range. */
export interface ReceivedBuckets {
  offset: number;
  bucketCounts: number[];
}

/**
 * One metric data point. Which optional fields are present depends on the metric type: `value` for sums and
 * gauges; `count`, `sum`, `min`, `max`, `bucketCounts`, `explicitBounds` for histograms; `scale`, `zeroCount`,
 * `positive`, `negative` for exponential histograms; `quantiles` for summaries.
 */
export interface ReceivedDataPoint {
  attributes: OtlpAttributes;
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  value?: number;
  count?: number;
  sum?: number;
  min?: number;
  max?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
  scale?: number;
  zeroCount?: number;
  positive?: ReceivedBuckets;
  negative?: ReceivedBuckets;
  quantiles?: { quantile: number; value: number }[];
}

/** One decoded metric, with the OTLP enum name of its aggregation temporality where it has one. */
export interface ReceivedMetric {
  name: string;
  description: string;
  unit: string;
  type: ReceivedMetricType;
  /** Sums only. */
  isMonotonic?: boolean;
  /** Sums and histograms: `AGGREGATION_TEMPORALITY_CUMULATIVE` or `..._DELTA`. */
  aggregationTemporality?: string;
  dataPoints: ReceivedDataPoint[];
  resource: OtlpAttributes;
  scope: OtlpScope;
  encoding: OtlpEncoding;
}

/** One decoded log record; `severityNumber` uses the same numbers as `SeverityNumber` of the Logs API. */
export interface ReceivedLog {
  body: OtlpValue | undefined;
  severityText: string;
  severityNumber: number;
  eventName: string;
  attributes: OtlpAttributes;
  /** Absent when the record was emitted outside a span. */
  traceId: string | undefined;
  spanId: string | undefined;
  flags: number;
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  resource: OtlpAttributes;
  scope: OtlpScope;
  encoding: OtlpEncoding;
}

/** The part of a protobufjs static message class we use. */
interface MessageCodec {
  decode(bytes: Uint8Array): object;
  fromObject(plain: Record<string, unknown>): object;
  toObject(message: object, options: Record<string, unknown>): Record<string, unknown>;
}

type Plain = Record<string, unknown>;

// The generated module is CommonJS whose typings only say `protobuf.Root`; it is walked as unknown below.
const generatedRoot: unknown = createRequire(import.meta.url)(
  'otlp-transformer-0.214/build/src/generated/root.js',
);

const REQUEST_TYPES: Record<OtlpSignal, string> = {
  traces: 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
  metrics: 'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
  logs: 'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
};

// longs as decimal strings keep nanosecond timestamps exact; enums stay numbers and are named from the schema.
const TO_PLAIN = { longs: String, arrays: true, oneofs: true } as const;

const ID_HEX_LENGTH: Record<string, number> = { traceId: 32, spanId: 16, parentSpanId: 16 };

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function lookup(path: string): unknown {
  let node: unknown = generatedRoot;
  for (const part of path.split('.')) {
    node = isObjectLike(node) ? node[part] : undefined;
  }
  return node;
}

function isCodec(value: unknown): value is MessageCodec {
  return (
    isObjectLike(value) &&
    typeof value['decode'] === 'function' &&
    typeof value['fromObject'] === 'function' &&
    typeof value['toObject'] === 'function'
  );
}

function codecFor(signal: OtlpSignal): MessageCodec {
  const codec = lookup(REQUEST_TYPES[signal]);
  if (!isCodec(codec)) {
    throw new Error(`the generated OTLP schema has no ${REQUEST_TYPES[signal]}`);
  }
  return codec;
}

function enumName(enumPath: string, value: unknown): string {
  const values = lookup(enumPath);
  const number = typeof value === 'number' ? value : 0;
  // protobufjs static enums resolve numbers to names through their prototype (valuesById).
  const name = isObjectLike(values) ? values[number] : undefined;
  return typeof name === 'string' ? name : String(number);
}

/** Turns OTLP/JSON hex ids into bytes so the JSON object can go through the protobuf schema. */
function hexIdsToBytes(value: unknown, path: string): unknown {
  if (Array.isArray(value)) {
    return value.map((item, index) => hexIdsToBytes(item, `${path}[${index}]`));
  }
  if (!isObjectLike(value)) {
    return value;
  }
  const out: Plain = {};
  for (const [key, field] of Object.entries(value)) {
    const hexLength = ID_HEX_LENGTH[key];
    if (hexLength !== undefined && typeof field === 'string') {
      if (field !== '' && (field.length !== hexLength || !/^[0-9a-fA-F]+$/.test(field))) {
        throw new Error(`${path}.${key} must be ${hexLength} hex characters in OTLP/JSON, got "${field}"`);
      }
      out[key] = Buffer.from(field, 'hex');
    } else {
      out[key] = hexIdsToBytes(field, `${path}.${key}`);
    }
  }
  return out;
}

/**
 * Decodes one export request body (already un-gzipped) into the plain object form of the OTLP
 * `Export*ServiceRequest` message. Throws when the body does not fit the schema.
 *
 * @example
 * ```ts
 * const request = decodeExportRequest('logs', body, 'json');
 * ```
 */
export function decodeExportRequest(signal: OtlpSignal, body: Uint8Array, encoding: OtlpEncoding): Plain {
  const codec = codecFor(signal);
  if (encoding === 'protobuf') {
    return codec.toObject(codec.decode(body), TO_PLAIN);
  }
  const parsed: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
  if (!isObjectLike(parsed) || Array.isArray(parsed)) {
    throw new Error('an OTLP/JSON request must be a JSON object');
  }
  const withBytes = hexIdsToBytes(parsed, '$');
  return codec.toObject(codec.fromObject(withBytes as Plain), TO_PLAIN);
}

function objectAt(value: unknown, key: string): Plain {
  const field = isObjectLike(value) ? value[key] : undefined;
  return isObjectLike(field) && !Array.isArray(field) ? field : {};
}

function listAt(value: unknown, key: string): unknown[] {
  const field = isObjectLike(value) ? value[key] : undefined;
  return Array.isArray(field) ? field : [];
}

function stringAt(value: unknown, key: string): string {
  const field = isObjectLike(value) ? value[key] : undefined;
  return typeof field === 'string' ? field : '';
}

function numberAt(value: unknown, key: string): number {
  const field = isObjectLike(value) ? value[key] : undefined;
  if (typeof field === 'number') return field;
  if (typeof field === 'string' && field !== '') return Number(field);
  return 0;
}

function has(value: unknown, key: string): boolean {
  return isObjectLike(value) && value[key] !== undefined && value[key] !== null;
}

function nanosAt(value: unknown, key: string): bigint {
  const field = isObjectLike(value) ? value[key] : undefined;
  if (typeof field === 'string' && field !== '') return BigInt(field);
  if (typeof field === 'number') return BigInt(field);
  return 0n;
}

function hexAt(value: unknown, key: string): string {
  const field = isObjectLike(value) ? value[key] : undefined;
  return field instanceof Uint8Array ? Buffer.from(field).toString('hex') : '';
}

function optionalHexAt(value: unknown, key: string): string | undefined {
  const hex = hexAt(value, key);
  return hex === '' ? undefined : hex;
}

function anyValue(value: unknown): OtlpValue {
  if (!isObjectLike(value)) return null;
  if (has(value, 'stringValue')) return stringAt(value, 'stringValue');
  if (has(value, 'boolValue')) return value['boolValue'] === true;
  if (has(value, 'intValue')) {
    const big = BigInt(String(value['intValue']));
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  if (has(value, 'doubleValue')) return numberAt(value, 'doubleValue');
  if (has(value, 'bytesValue')) {
    const bytes = value['bytesValue'];
    return bytes instanceof Uint8Array ? new Uint8Array(bytes) : new Uint8Array();
  }
  if (has(value, 'arrayValue')) return listAt(value['arrayValue'], 'values').map(anyValue);
  if (has(value, 'kvlistValue')) return attributes(listAt(value['kvlistValue'], 'values'));
  return null;
}

function attributes(keyValues: unknown[]): OtlpAttributes {
  const out: OtlpAttributes = {};
  for (const keyValue of keyValues) {
    // defineProperty keeps a "__proto__" attribute key an ordinary key instead of a prototype swap.
    Object.defineProperty(out, stringAt(keyValue, 'key'), {
      value: anyValue(objectAt(keyValue, 'value')),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function scope(scoped: unknown): OtlpScope {
  const raw = objectAt(scoped, 'scope');
  return {
    name: stringAt(raw, 'name'),
    version: stringAt(raw, 'version'),
    attributes: attributes(listAt(raw, 'attributes')),
  };
}

function resource(resourceScoped: unknown): OtlpAttributes {
  return attributes(listAt(objectAt(resourceScoped, 'resource'), 'attributes'));
}

/**
 * Flattens a decoded `ExportTraceServiceRequest` into one entry per span.
 *
 * @example
 * ```ts
 * const [span] = flattenSpans(decodeExportRequest('traces', body, 'json'), 'json');
 * ```
 */
export function flattenSpans(request: Plain, encoding: OtlpEncoding): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of listAt(request, 'resourceSpans')) {
    const resourceAttributes = resource(resourceSpans);
    for (const scopeSpans of listAt(resourceSpans, 'scopeSpans')) {
      const spanScope = scope(scopeSpans);
      for (const span of listAt(scopeSpans, 'spans')) {
        const status = objectAt(span, 'status');
        spans.push({
          traceId: hexAt(span, 'traceId'),
          spanId: hexAt(span, 'spanId'),
          parentSpanId: optionalHexAt(span, 'parentSpanId'),
          traceState: stringAt(span, 'traceState'),
          flags: numberAt(span, 'flags'),
          name: stringAt(span, 'name'),
          kind: enumName('opentelemetry.proto.trace.v1.Span.SpanKind', numberAt(span, 'kind')),
          startTimeUnixNano: nanosAt(span, 'startTimeUnixNano'),
          endTimeUnixNano: nanosAt(span, 'endTimeUnixNano'),
          attributes: attributes(listAt(span, 'attributes')),
          droppedAttributesCount: numberAt(span, 'droppedAttributesCount'),
          events: listAt(span, 'events').map((event) => ({
            name: stringAt(event, 'name'),
            timeUnixNano: nanosAt(event, 'timeUnixNano'),
            attributes: attributes(listAt(event, 'attributes')),
          })),
          links: listAt(span, 'links').map((link) => ({
            traceId: hexAt(link, 'traceId'),
            spanId: hexAt(link, 'spanId'),
            attributes: attributes(listAt(link, 'attributes')),
          })),
          status: {
            code: enumName('opentelemetry.proto.trace.v1.Status.StatusCode', numberAt(status, 'code')),
            message: stringAt(status, 'message'),
          },
          resource: resourceAttributes,
          scope: spanScope,
          encoding,
        });
      }
    }
  }
  return spans;
}

function numberDataPoint(point: unknown): ReceivedDataPoint {
  const out = basePoint(point);
  if (has(point, 'asDouble')) out.value = numberAt(point, 'asDouble');
  else if (has(point, 'asInt')) out.value = numberAt(point, 'asInt');
  return out;
}

function basePoint(point: unknown): ReceivedDataPoint {
  return {
    attributes: attributes(listAt(point, 'attributes')),
    startTimeUnixNano: nanosAt(point, 'startTimeUnixNano'),
    timeUnixNano: nanosAt(point, 'timeUnixNano'),
  };
}

function withCountSumMinMax(point: unknown, out: ReceivedDataPoint): ReceivedDataPoint {
  out.count = numberAt(point, 'count');
  if (has(point, 'sum')) out.sum = numberAt(point, 'sum');
  if (has(point, 'min')) out.min = numberAt(point, 'min');
  if (has(point, 'max')) out.max = numberAt(point, 'max');
  return out;
}

function histogramDataPoint(point: unknown): ReceivedDataPoint {
  const out = withCountSumMinMax(point, basePoint(point));
  out.bucketCounts = listAt(point, 'bucketCounts').map(Number);
  out.explicitBounds = listAt(point, 'explicitBounds').map(Number);
  return out;
}

function buckets(value: unknown): ReceivedBuckets {
  return { offset: numberAt(value, 'offset'), bucketCounts: listAt(value, 'bucketCounts').map(Number) };
}

function exponentialDataPoint(point: unknown): ReceivedDataPoint {
  const out = withCountSumMinMax(point, basePoint(point));
  out.scale = numberAt(point, 'scale');
  out.zeroCount = numberAt(point, 'zeroCount');
  out.positive = buckets(objectAt(point, 'positive'));
  out.negative = buckets(objectAt(point, 'negative'));
  return out;
}

function summaryDataPoint(point: unknown): ReceivedDataPoint {
  const out = basePoint(point);
  out.count = numberAt(point, 'count');
  out.sum = numberAt(point, 'sum');
  out.quantiles = listAt(point, 'quantileValues').map((q) => ({
    quantile: numberAt(q, 'quantile'),
    value: numberAt(q, 'value'),
  }));
  return out;
}

const TEMPORALITY_ENUM = 'opentelemetry.proto.metrics.v1.AggregationTemporality';

function metric(
  raw: unknown,
  resourceAttributes: OtlpAttributes,
  metricScope: OtlpScope,
  encoding: OtlpEncoding,
): ReceivedMetric {
  const out: ReceivedMetric = {
    name: stringAt(raw, 'name'),
    description: stringAt(raw, 'description'),
    unit: stringAt(raw, 'unit'),
    type: 'unknown',
    dataPoints: [],
    resource: resourceAttributes,
    scope: metricScope,
    encoding,
  };
  if (has(raw, 'sum')) {
    const data = objectAt(raw, 'sum');
    out.type = 'sum';
    out.isMonotonic = data['isMonotonic'] === true;
    out.aggregationTemporality = enumName(TEMPORALITY_ENUM, numberAt(data, 'aggregationTemporality'));
    out.dataPoints = listAt(data, 'dataPoints').map(numberDataPoint);
  } else if (has(raw, 'gauge')) {
    out.type = 'gauge';
    out.dataPoints = listAt(objectAt(raw, 'gauge'), 'dataPoints').map(numberDataPoint);
  } else if (has(raw, 'histogram')) {
    const data = objectAt(raw, 'histogram');
    out.type = 'histogram';
    out.aggregationTemporality = enumName(TEMPORALITY_ENUM, numberAt(data, 'aggregationTemporality'));
    out.dataPoints = listAt(data, 'dataPoints').map(histogramDataPoint);
  } else if (has(raw, 'exponentialHistogram')) {
    const data = objectAt(raw, 'exponentialHistogram');
    out.type = 'exponentialHistogram';
    out.aggregationTemporality = enumName(TEMPORALITY_ENUM, numberAt(data, 'aggregationTemporality'));
    out.dataPoints = listAt(data, 'dataPoints').map(exponentialDataPoint);
  } else if (has(raw, 'summary')) {
    out.type = 'summary';
    out.dataPoints = listAt(objectAt(raw, 'summary'), 'dataPoints').map(summaryDataPoint);
  }
  return out;
}

/**
 * Flattens a decoded `ExportMetricsServiceRequest` into one entry per metric (per scope and resource).
 *
 * @example
 * ```ts
 * const metrics = flattenMetrics(decodeExportRequest('metrics', body, 'protobuf'), 'protobuf');
 * ```
 */
export function flattenMetrics(request: Plain, encoding: OtlpEncoding): ReceivedMetric[] {
  const metrics: ReceivedMetric[] = [];
  for (const resourceMetrics of listAt(request, 'resourceMetrics')) {
    const resourceAttributes = resource(resourceMetrics);
    for (const scopeMetrics of listAt(resourceMetrics, 'scopeMetrics')) {
      const metricScope = scope(scopeMetrics);
      for (const raw of listAt(scopeMetrics, 'metrics')) {
        metrics.push(metric(raw, resourceAttributes, metricScope, encoding));
      }
    }
  }
  return metrics;
}

/**
 * Flattens a decoded `ExportLogsServiceRequest` into one entry per log record.
 *
 * @example
 * ```ts
 * const logs = flattenLogs(decodeExportRequest('logs', body, 'json'), 'json');
 * ```
 */
export function flattenLogs(request: Plain, encoding: OtlpEncoding): ReceivedLog[] {
  const logs: ReceivedLog[] = [];
  for (const resourceLogs of listAt(request, 'resourceLogs')) {
    const resourceAttributes = resource(resourceLogs);
    for (const scopeLogs of listAt(resourceLogs, 'scopeLogs')) {
      const logScope = scope(scopeLogs);
      for (const record of listAt(scopeLogs, 'logRecords')) {
        logs.push({
          body: has(record, 'body') ? anyValue(objectAt(record, 'body')) : undefined,
          severityText: stringAt(record, 'severityText'),
          severityNumber: numberAt(record, 'severityNumber'),
          eventName: stringAt(record, 'eventName'),
          attributes: attributes(listAt(record, 'attributes')),
          traceId: optionalHexAt(record, 'traceId'),
          spanId: optionalHexAt(record, 'spanId'),
          flags: numberAt(record, 'flags'),
          timeUnixNano: nanosAt(record, 'timeUnixNano'),
          observedTimeUnixNano: nanosAt(record, 'observedTimeUnixNano'),
          resource: resourceAttributes,
          scope: logScope,
          encoding,
        });
      }
    }
  }
  return logs;
}
