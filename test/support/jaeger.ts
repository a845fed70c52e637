/**
 * A real Jaeger v2 process for system tests: started with a given config on free 127.0.0.1 ports, ready
 * when the collector inside it says so, queried through the HTTP API the UI uses, stopped by the test.
 *
 * The binary is built by `bash scripts/ci-install-tools.sh` into
 * `${XDG_CACHE_HOME:-~/.cache}/toolhooks/jaeger-v1.76.0/jaeger`, or given as `JAEGER_BIN`. Missing: the test
 * fails in CI and is skipped elsewhere, with a note saying how to build it ({@link requireJaeger}).
 *
 * The config's listeners are moved to free ports with `--set` (the collector's command-line overrides), so
 * the file under test is the one users run: OTLP gRPC and HTTP receivers, the query service (HTTP and
 * gRPC), the healthcheckv2 extension and Jaeger's own metrics endpoint.
 *
 * @example
 * ```ts
 * it('shows the trace', async (ctx) => {
 *   const jaeger = await startJaeger({ binary: requireJaeger(ctx) });
 *   try {
 *     // send spans to jaeger.otlpHttpUrl (e.g. OTEL_EXPORTER_OTLP_ENDPOINT), then:
 *     const traces = await jaeger.waitFor('the aborted call', async () => {
 *       const found = await jaeger.findTraces({ service: 'my-agent', tags: { 'toolhooks.outcome': 'aborted' } });
 *       return found.length > 0 && found;
 *     });
 *   } finally {
 *     await jaeger.stop();
 *   }
 * });
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { builtProgram, requireBuiltProgram, type SkippableContext } from './programs.js';
import { freePorts } from './ports.js';
import { pollUntil } from './poll.js';

/** The Jaeger Go module version the project builds and tests against (Jaeger 2.13.0). */
export const JAEGER_MODULE_VERSION = 'v1.76.0';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** deploy/jaeger/jaeger.yaml: OTLP in, memory storage, query service; keeps every trace. */
export const JAEGER_CONFIG = join(ROOT, 'deploy/jaeger/jaeger.yaml');
/** deploy/tail-sampling.yaml: the overlay that adds the tail-sampling pipeline (a second config). */
export const TAIL_SAMPLING_CONFIG = join(ROOT, 'deploy/tail-sampling.yaml');
/** deploy/jaeger/badger.yaml: the overlay that stores traces in Badger (JAEGER_BADGER_DIR) instead of memory. */
export const BADGER_CONFIG = join(ROOT, 'deploy/jaeger/badger.yaml');
/** deploy/jaeger/spm.yaml: the overlay for the Monitor tab (spanmetrics → Prometheus → query service). */
export const SPM_CONFIG = join(ROOT, 'deploy/jaeger/spm.yaml');

/**
 * Where the Jaeger binary is: `JAEGER_BIN`, else the cache scripts/ci-install-tools.sh builds into.
 *
 * @example
 * ```ts
 * jaegerBinary(); // '/root/.cache/toolhooks/jaeger-v1.76.0/jaeger'
 * ```
 */
export function jaegerBinary(env: NodeJS.ProcessEnv = process.env): string {
  return builtProgram('JAEGER_BIN', `jaeger-${JAEGER_MODULE_VERSION}`, 'jaeger', env);
}

/**
 * The Jaeger binary's path for a test that needs it. Missing: throws in CI (the test fails: CI builds it
 * in scripts/ci-install-tools.sh), otherwise warns and skips the test with a note saying how to build it.
 *
 * @example
 * ```ts
 * it('runs Jaeger', async (ctx) => {
 *   const jaeger = await startJaeger({ binary: requireJaeger(ctx) });
 * });
 * ```
 */
export function requireJaeger(ctx: SkippableContext, env: NodeJS.ProcessEnv = process.env): string {
  const binary = jaegerBinary(env);
  return requireBuiltProgram(
    ctx,
    binary,
    `Jaeger not found at ${binary}. Build it with \`bash scripts/ci-install-tools.sh\` (needs Go; builds Jaeger` +
      ` 2.13.0, module ${JAEGER_MODULE_VERSION}, once, 3 to 10 minutes on 2 cores) or point JAEGER_BIN at a Jaeger v2 binary.`,
    env,
  );
}

/** The loopback ports a started Jaeger listens on. */
export interface JaegerPorts {
  readonly otlpGrpc: number;
  readonly otlpHttp: number;
  readonly queryHttp: number;
  readonly queryGrpc: number;
  readonly health: number;
  readonly metrics: number;
}

/** Options of {@link startJaeger}. */
export interface JaegerOptions {
  /** The Jaeger executable; default {@link jaegerBinary}. */
  readonly binary?: string;
  /** Config files, merged in order (`--config` each); default `[JAEGER_CONFIG]`. */
  readonly configs?: readonly string[];
  /** Extra environment, e.g. `{ TOOLHOOKS_TRACE_SAMPLE_PERCENT: '10' }` for the tail-sampling overlay. */
  readonly env?: Readonly<Record<string, string>>;
  /** Listen on these ports (to restart a Jaeger where its clients expect it); default: free ones. */
  readonly ports?: JaegerPorts;
  /** How long to wait for "Everything is ready"; default 30 s. */
  readonly readyTimeoutMs?: number;
}

/** A key/value as the `/api/traces` JSON spells span tags, process tags and log fields. */
export interface JaegerKeyValue {
  readonly key: string;
  readonly type: string;
  readonly value: unknown;
}

/** A span as `/api/traces` returns it (the UI's format; OTel events are `logs`, status ERROR is tag `error`). */
export interface JaegerSpan {
  readonly traceID: string;
  readonly spanID: string;
  readonly operationName: string;
  readonly references: readonly { readonly refType: string; readonly traceID: string; readonly spanID: string }[];
  readonly startTime: number;
  readonly duration: number;
  readonly tags: readonly JaegerKeyValue[];
  readonly logs: readonly { readonly timestamp: number; readonly fields: readonly JaegerKeyValue[] }[];
  readonly processID: string;
}

/** A trace as `/api/traces` returns it. */
export interface JaegerTrace {
  readonly traceID: string;
  readonly spans: readonly JaegerSpan[];
  readonly processes: Readonly<Record<string, { readonly serviceName: string; readonly tags: readonly JaegerKeyValue[] }>>;
}

/** Parameters of `/api/traces` (the UI's search form). */
export interface TraceSearch {
  readonly service: string;
  readonly operation?: string;
  /** Tag filters, all of which must match (the UI's "Tags" field, e.g. `toolhooks.outcome=aborted`). */
  readonly tags?: Readonly<Record<string, string>>;
  /** Default 5000 (Jaeger's own default is 100). */
  readonly limit?: number;
}

/** Parameters of `/api/v3/traces` (OTLP JSON out). */
export interface V3TraceSearch {
  readonly service: string;
  readonly operation?: string;
  /** Default: an hour ago to an hour from now. */
  readonly startTimeMin?: Date;
  readonly startTimeMax?: Date;
  /** Default 1000. */
  readonly numTraces?: number;
}

/** A started Jaeger. Always call {@link RunningJaeger.stop}. */
export interface RunningJaeger {
  readonly ports: JaegerPorts;
  /** `http://127.0.0.1:<otlpHttp>`: the value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly otlpHttpUrl: string;
  /** `http://127.0.0.1:<queryHttp>`: the UI and query API. */
  readonly queryUrl: string;
  /** `/api/services`. */
  services(): Promise<string[]>;
  /** `/api/operations?service=` (names with span kinds). */
  operations(service: string): Promise<{ name: string; spanKind: string }[]>;
  /** `/api/traces?service=&operation=&tags=`. */
  findTraces(search: TraceSearch): Promise<JaegerTrace[]>;
  /** `/api/v3/traces?query.service_name=...`: the raw OTLP JSON body (`{ result: { resourceSpans } }`). */
  v3Traces(search: V3TraceSearch): Promise<unknown>;
  /** GET any query-API path (e.g. `/api/metrics/calls?service=...`): the parsed JSON; throws on a non-2xx. */
  api(path: string): Promise<unknown>;
  /** Polls `probe` until it returns something other than undefined/false; throws after `timeoutMs` (default 30 s). */
  waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  /** What Jaeger logged (the last 64 KiB), for failure messages. */
  logs(): string;
  /** SIGKILLs the process (a crash: no flush); its ports are free once this resolves. Safe to call twice. */
  kill(): Promise<void>;
  /**
   * SIGSTOPs the process: a hung Jaeger. Its ports still accept connections (the kernel queues them) but
   * nothing answers until {@link RunningJaeger.resume}.
   */
  pause(): void;
  /** SIGCONTs a paused process. */
  resume(): void;
  /** Stops the process (SIGTERM, SIGKILL after 5 s). Safe to call twice, and after kill(). */
  stop(): Promise<void>;
}

/**
 * Starts Jaeger and resolves once it is ready to receive and answer; rejects with Jaeger's own output when
 * it exits first (a bad config) or never gets ready.
 *
 * @example
 * ```ts
 * const jaeger = await startJaeger({ configs: [JAEGER_CONFIG, TAIL_SAMPLING_CONFIG], env: { TOOLHOOKS_TRACE_DECISION_WAIT: '2s' } });
 * const again = await (await jaeger.kill(), startJaeger({ ports: jaeger.ports })); // same ports, empty storage
 * ```
 */
export async function startJaeger(options: JaegerOptions = {}): Promise<RunningJaeger> {
  const binary = options.binary ?? jaegerBinary();
  // Free ports can be taken between choosing and binding them; choose again then (not for fixed ports).
  for (let attempt = 1; ; attempt += 1) {
    const ports = options.ports ?? (await jaegerPorts());
    try {
      return await launch(binary, options, ports);
    } catch (error) {
      const portTaken = error instanceof JaegerStartError && /address already in use/.test(error.logs);
      if (!portTaken || options.ports !== undefined || attempt === 3) throw error;
    }
  }
}

/** Jaeger exited or was not ready in time; the message ends with its output. */
export class JaegerStartError extends Error {
  constructor(
    reason: string,
    readonly logs: string,
  ) {
    super(`${reason}\n--- jaeger output ---\n${logs}`);
    this.name = 'JaegerStartError';
  }
}

const LOG_LIMIT = 64 * 1024;
const READY_LINE = 'Everything is ready';

function overrides(ports: JaegerPorts): string[] {
  const at = (port: number): string => `127.0.0.1:${port}`;
  return [
    `receivers::otlp::protocols::grpc::endpoint=${at(ports.otlpGrpc)}`,
    `receivers::otlp::protocols::http::endpoint=${at(ports.otlpHttp)}`,
    `extensions::jaeger_query::http::endpoint=${at(ports.queryHttp)}`,
    `extensions::jaeger_query::grpc::endpoint=${at(ports.queryGrpc)}`,
    `extensions::healthcheckv2::http::endpoint=${at(ports.health)}`,
    `service::telemetry::metrics::readers=[{pull: {exporter: {prometheus: {host: 127.0.0.1, port: ${ports.metrics}}}}}]`,
  ].map((setting) => `--set=${setting}`);
}

async function launch(binary: string, options: JaegerOptions, ports: JaegerPorts): Promise<RunningJaeger> {
  const configs = options.configs ?? [JAEGER_CONFIG];
  const args = [...configs.map((config) => `--config=${resolve(config)}`), ...overrides(ports)];
  const child = spawn(binary, args, {
    env: { ...process.env, JAEGER_LISTEN_HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { text: '' };
  const append = (chunk: Buffer): void => {
    log.text = (log.text + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const spawnFailed = new Promise<Error>((done) => child.once('error', done));
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => done(code === null ? `killed by ${signal ?? 'a signal'}` : `exit code ${code}`)),
  );

  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let state: 'ready' | 'waiting' = 'waiting';
  while (state === 'waiting') {
    const outcome = await Promise.race([
      spawnFailed.then((error) => ({ failed: `could not run ${binary}: ${error.message}` })),
      exited.then((status) => ({ failed: `jaeger ${args.join(' ')} exited (${status}) before it was ready` })),
      delay(100).then(() => undefined),
    ]);
    if (outcome !== undefined) throw new JaegerStartError(outcome.failed, log.text);
    if (log.text.includes(READY_LINE)) state = 'ready';
    else if (Date.now() > deadline) {
      await stopChild(child, 'SIGKILL');
      throw new JaegerStartError(`jaeger was not ready after ${timeoutMs} ms`, log.text);
    }
  }
  return running(child, ports, log);
}

function running(child: ChildProcess, ports: JaegerPorts, log: { text: string }): RunningJaeger {
  const queryUrl = `http://127.0.0.1:${ports.queryHttp}`;
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(`${queryUrl}${path}`);
    const text = await response.text();
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as unknown;
  };
  const data = async <T>(path: string): Promise<T> => ((await get(path)) as { data: T | null }).data ?? ([] as T);
  let stopping: Promise<void> | undefined;
  return {
    ports,
    otlpHttpUrl: `http://127.0.0.1:${ports.otlpHttp}`,
    queryUrl,
    services: () => data<string[]>('/api/services'),
    operations: (service) => data(`/api/operations?service=${encodeURIComponent(service)}`),
    findTraces(search) {
      const query = new URLSearchParams({ service: search.service, limit: String(search.limit ?? 5000), lookback: '2h' });
      if (search.operation !== undefined) query.set('operation', search.operation);
      if (search.tags !== undefined) query.set('tags', JSON.stringify(search.tags));
      return data<JaegerTrace[]>(`/api/traces?${query.toString()}`);
    },
    v3Traces(search) {
      const now = Date.now();
      const query = new URLSearchParams({
        'query.service_name': search.service,
        'query.start_time_min': (search.startTimeMin ?? new Date(now - 3_600_000)).toISOString(),
        'query.start_time_max': (search.startTimeMax ?? new Date(now + 3_600_000)).toISOString(),
        // Jaeger requires it (more than 0, less than the storage's max_traces).
        'query.num_traces': String(search.numTraces ?? 1000),
      });
      if (search.operation !== undefined) query.set('query.operation_name', search.operation);
      return get(`/api/v3/traces?${query.toString()}`);
    },
    api: get,
    waitFor: <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number) =>
      pollUntil(what, probe, { label: 'jaeger output', output: () => log.text, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
    logs: () => log.text,
    kill: () => stopChild(child, 'SIGKILL'),
    pause: () => signal(child, 'SIGSTOP'),
    resume: () => signal(child, 'SIGCONT'),
    stop() {
      signal(child, 'SIGCONT'); // a stopped process acts on SIGTERM only once continued
      stopping ??= stopChild(child, 'SIGTERM');
      return stopping;
    },
  };
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) child.kill(name);
}

async function stopChild(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill(signal);
  const timedOut = await Promise.race([exited.then(() => false), delay(5_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Six ports that were free a moment ago on 127.0.0.1, all different. */
async function jaegerPorts(): Promise<JaegerPorts> {
  const [otlpGrpc, otlpHttp, queryHttp, queryGrpc, health, metrics] = (await freePorts(6)) as [number, number, number, number, number, number];
  return { otlpGrpc, otlpHttp, queryHttp, queryGrpc, health, metrics };
}

/**
 * A span's tags (or a log's fields) as a plain object.
 *
 * @example
 * ```ts
 * tagsOf(span.tags)['toolhooks.outcome']; // 'aborted'
 * ```
 */
export function tagsOf(values: readonly JaegerKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(values.map(({ key, value }) => [key, value]));
}
