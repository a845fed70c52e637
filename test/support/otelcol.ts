/**
 * A real OpenTelemetry Collector process for system tests: the binary scripts/build-otelcol.sh builds from
 * deploy/otelcol-builder.yaml, started with the configs users run, on free 127.0.0.1 ports, ready when its
 * health_check extension answers, its own metrics read from its Prometheus endpoint, stopped by the test.
 *
 * The binary lives in `${XDG_CACHE_HOME:-~/.cache}/toolhooks/otelcol-v0.161.0/otelcol`, or is given as
 * `OTELCOL_BIN`. Missing: the test fails in CI and is skipped elsewhere ({@link requireOtelcol}).
 *
 * Ports reach the configs through the environment: every config in deploy/ reads the same variables
 * (`TOOLHOOKS_LISTEN_HOST`, `TOOLHOOKS_OTLP_GRPC_PORT`, `TOOLHOOKS_OTLP_HTTP_PORT`, `TOOLHOOKS_HEALTH_PORT`,
 * `TOOLHOOKS_TELEMETRY_PORT`, `TOOLHOOKS_PROMETHEUS_PORT`); a config ignores the ones it does not use.
 *
 * @example
 * ```ts
 * const sampler = await startCollector({
 *   binary: requireOtelcol(ctx),
 *   configs: [TAIL_SAMPLING_CONFIG, SAMPLER_CONFIG],
 *   env: { TOOLHOOKS_JAEGER_ENDPOINT: `127.0.0.1:${jaeger.ports.otlpGrpc}` },
 * });
 * try {
 *   console.log(await sampler.metric('otelcol_receiver_accepted_spans'));
 * } finally {
 *   await sampler.stop();
 * }
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { builtProgram, requireBuiltProgram, type SkippableContext } from './programs.js';
import { freePorts } from './ports.js';
import { pollUntil } from './poll.js';

/** The collector release deploy/otelcol-builder.yaml builds (every component at this version). */
export const OTELCOL_VERSION = 'v0.161.0';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** deploy/pipeline/gateway.yaml: the load-balancing tier. */
export const GATEWAY_CONFIG = join(ROOT, 'deploy/pipeline/gateway.yaml');
/** deploy/pipeline/gateway-dns.yaml: the overlay that finds samplers through DNS (Kubernetes). */
export const GATEWAY_DNS_CONFIG = join(ROOT, 'deploy/pipeline/gateway-dns.yaml');
/** deploy/pipeline/sampler.yaml: the tail-sampling tier, loaded after deploy/tail-sampling.yaml. */
export const SAMPLER_CONFIG = join(ROOT, 'deploy/pipeline/sampler.yaml');
/** deploy/otel-collector.yaml: the single collector of docker-compose.yml's laptop profile. */
export const SINGLE_COLLECTOR_CONFIG = join(ROOT, 'deploy/otel-collector.yaml');

/**
 * Where the collector binary is: `OTELCOL_BIN`, else the cache scripts/build-otelcol.sh builds into.
 *
 * @example
 * ```ts
 * otelcolBinary(); // '/root/.cache/toolhooks/otelcol-v0.161.0/otelcol'
 * ```
 */
export function otelcolBinary(env: NodeJS.ProcessEnv = process.env): string {
  return builtProgram('OTELCOL_BIN', `otelcol-${OTELCOL_VERSION}`, 'otelcol', env);
}

/**
 * The collector binary's path for a test that needs it. Missing: throws in CI (CI builds it in
 * scripts/ci-install-tools.sh), otherwise warns and skips the test with a note saying how to build it.
 *
 * @example
 * ```ts
 * it('runs the gateway', async (ctx) => {
 *   const gateway = await startCollector({ binary: requireOtelcol(ctx), configs: [GATEWAY_CONFIG] });
 * });
 * ```
 */
export function requireOtelcol(ctx: SkippableContext, env: NodeJS.ProcessEnv = process.env): string {
  const binary = otelcolBinary(env);
  return requireBuiltProgram(
    ctx,
    binary,
    `OpenTelemetry Collector not found at ${binary}. Build it with \`bash scripts/build-otelcol.sh\` (needs Go;` +
      ` builds ${OTELCOL_VERSION} from deploy/otelcol-builder.yaml once, 5 to 15 minutes on 2 cores) or point OTELCOL_BIN at it.`,
    env,
  );
}

/** The loopback ports a started collector is given (each config uses the ones it needs). */
export interface CollectorPorts {
  readonly otlpGrpc: number;
  readonly otlpHttp: number;
  readonly health: number;
  /** The collector's own metrics (otelcol_*). */
  readonly telemetry: number;
  /** The prometheus exporter (apps' metrics), in the configs that have one. */
  readonly prometheus: number;
}

/** Options of {@link startCollector}. */
export interface CollectorOptions {
  /** The collector executable; default {@link otelcolBinary}. */
  readonly binary?: string;
  /** Config files, merged in order (`--config` each). */
  readonly configs: readonly string[];
  /** Extra environment (the configs' `${env:...}` settings). */
  readonly env?: Readonly<Record<string, string>>;
  /** Listen on these ports (a restart where its clients expect it); default: free ones. */
  readonly ports?: CollectorPorts;
  /** How long to wait for the health check to answer; default 30 s. */
  readonly readyTimeoutMs?: number;
  /** A name for failure messages ("sampler-2"); default "otelcol". */
  readonly name?: string;
}

/** A started collector. Always call {@link RunningCollector.stop}. */
export interface RunningCollector {
  readonly name: string;
  readonly ports: CollectorPorts;
  readonly pid: number;
  /** `127.0.0.1:<otlpGrpc>`: a static-resolver hostname, an exporter endpoint. */
  readonly otlpGrpcEndpoint: string;
  /** `http://127.0.0.1:<otlpHttp>`: the value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly otlpHttpUrl: string;
  /** The collector's own metrics, parsed ({@link parsePrometheusText}). */
  metrics(): Promise<MetricSample[]>;
  /** Sum of the samples of `name` whose labels include `labels` (0 when none). */
  metric(name: string, labels?: Readonly<Record<string, string>>): Promise<number>;
  /** The process's resident memory in bytes (Linux /proc), or undefined when it has exited. */
  rssBytes(): number | undefined;
  /** What the collector logged (the last 256 KiB), for failure messages. */
  logs(): string;
  /** SIGKILLs the process group (a crash: nothing flushed); resolves once it has exited. Safe to call twice. */
  kill(): Promise<void>;
  /**
   * SIGSTOPs the process group: it sends, receives and processes nothing (the kernel holds what arrives)
   * until {@link RunningCollector.resume}. {@link RunningCollector.stop} and `kill` resume it first.
   */
  pause(): void;
  /** SIGCONTs the process group after {@link RunningCollector.pause}. Safe to call when it is not paused. */
  resume(): void;
  /** SIGTERM (SIGKILL after 10 s) to the process group. Safe to call twice, and after kill(). */
  stop(): Promise<void>;
}

/** The collector exited or was not healthy in time; the message ends with its output. */
export class CollectorStartError extends Error {
  constructor(
    reason: string,
    readonly logs: string,
  ) {
    super(`${reason}\n--- otelcol output ---\n${logs}`);
    this.name = 'CollectorStartError';
  }
}

const LOG_LIMIT = 256 * 1024;

/**
 * Starts a collector and resolves once its health check answers 200 (every pipeline running); rejects
 * with the collector's own output when it exits first (a bad config) or never gets healthy.
 *
 * @example
 * ```ts
 * const gateway = await startCollector({ configs: [GATEWAY_CONFIG], env: { TOOLHOOKS_SAMPLERS: '[127.0.0.1:4417]' } });
 * await gateway.kill();
 * const again = await startCollector({ configs: [GATEWAY_CONFIG], ports: gateway.ports });
 * ```
 */
export async function startCollector(options: CollectorOptions): Promise<RunningCollector> {
  // Free ports can be taken between choosing and binding them; choose again then (not for fixed ports).
  for (let attempt = 1; ; attempt += 1) {
    const ports = options.ports ?? (await collectorPorts());
    try {
      return await launch(options, ports);
    } catch (error) {
      const portTaken = error instanceof CollectorStartError && /address already in use/.test(error.logs);
      if (!portTaken || options.ports !== undefined || attempt === 3) throw error;
    }
  }
}

/** The environment every deploy/ config reads its listeners from. */
export function collectorEnv(ports: CollectorPorts): Record<string, string> {
  return {
    TOOLHOOKS_LISTEN_HOST: '127.0.0.1',
    TOOLHOOKS_OTLP_GRPC_PORT: String(ports.otlpGrpc),
    TOOLHOOKS_OTLP_HTTP_PORT: String(ports.otlpHttp),
    TOOLHOOKS_HEALTH_PORT: String(ports.health),
    TOOLHOOKS_TELEMETRY_PORT: String(ports.telemetry),
    TOOLHOOKS_PROMETHEUS_PORT: String(ports.prometheus),
  };
}

async function launch(options: CollectorOptions, ports: CollectorPorts): Promise<RunningCollector> {
  const binary = options.binary ?? otelcolBinary();
  const name = options.name ?? 'otelcol';
  const args = options.configs.map((config) => `--config=${resolve(config)}`);
  const child = spawn(binary, args, {
    env: { ...process.env, ...collectorEnv(ports), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stop() and kill() reach everything it started.
    detached: true,
  });
  const log = { text: '' };
  const append = (chunk: Buffer): void => {
    log.text = (log.text + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const spawnFailed = new Promise<Error>((done) => child.once('error', done));
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => done(code === null ? `killed by ${signal ?? 'a signal'}` : `exit code ${code}`)),
  );

  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await Promise.race([
      spawnFailed.then((error) => ({ failed: `could not run ${binary}: ${error.message}` })),
      exited.then((status) => ({ failed: `${name}: otelcol ${args.join(' ')} exited (${status}) before it was healthy` })),
      delay(200).then(() => undefined),
    ]);
    if (outcome !== undefined) throw new CollectorStartError(outcome.failed, log.text);
    if (await healthy(ports.health)) break;
    if (Date.now() > deadline) {
      await stopGroup(child, 'SIGKILL');
      throw new CollectorStartError(`${name} was not healthy after ${timeoutMs} ms`, log.text);
    }
  }
  return running(name, child, ports, log);
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

function running(name: string, child: ChildProcess, ports: CollectorPorts, log: { text: string }): RunningCollector {
  const pid = child.pid ?? -1;
  const metrics = async (): Promise<MetricSample[]> => {
    const response = await fetch(`http://127.0.0.1:${ports.telemetry}/metrics`);
    const text = await response.text();
    if (!response.ok) throw new Error(`${name} GET /metrics: HTTP ${response.status} ${text}`);
    return parsePrometheusText(text);
  };
  let stopping: Promise<void> | undefined;
  return {
    name,
    ports,
    pid,
    otlpGrpcEndpoint: `127.0.0.1:${ports.otlpGrpc}`,
    otlpHttpUrl: `http://127.0.0.1:${ports.otlpHttp}`,
    metrics,
    metric: async (metric, labels = {}) => sumOf(await metrics(), metric, labels),
    rssBytes() {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
        return kib === undefined ? undefined : Number(kib) * 1024;
      } catch {
        return undefined;
      }
    },
    logs: () => log.text,
    kill: () => stopGroup(child, 'SIGKILL'),
    pause: () => signalGroup(child, 'SIGSTOP'),
    resume: () => signalGroup(child, 'SIGCONT'),
    stop() {
      stopping ??= stopGroup(child, 'SIGTERM');
      return stopping;
    },
  };
}

async function stopGroup(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  signalGroup(child, signal);
  signalGroup(child, 'SIGCONT'); // a paused group handles SIGTERM only once it runs again
  const timedOut = await Promise.race([exited.then(() => false), delay(10_000).then(() => true)]);
  if (timedOut) {
    signalGroup(child, 'SIGKILL');
    await exited;
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // the group is gone already; the child itself, if it is still there
  }
}

/** Five ports that were free a moment ago on 127.0.0.1, all different. */
async function collectorPorts(): Promise<CollectorPorts> {
  const [otlpGrpc, otlpHttp, health, telemetry, prometheus] = (await freePorts(5)) as [number, number, number, number, number];
  return { otlpGrpc, otlpHttp, health, telemetry, prometheus };
}

/** One sample of the Prometheus text format. */
export interface MetricSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * The samples of a Prometheus text exposition (comments skipped; label values unescaped).
 *
 * @example
 * ```ts
 * parsePrometheusText('a_total{x="1"} 3\n'); // [{ name: 'a_total', labels: { x: '1' }, value: 3 }]
 * ```
 */
export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[label[1] ?? ''] = (label[2] ?? '').replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char));
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * Sum of the samples named `name` whose labels include every one of `labels`.
 *
 * @example
 * ```ts
 * sumOf(samples, 'otelcol_exporter_sent_spans', { exporter: 'load_balancing' });
 * ```
 */
export function sumOf(samples: readonly MetricSample[], name: string, labels: Readonly<Record<string, string>> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * Polls until `probe` returns something other than undefined/false, showing `collectors`' logs on a timeout.
 *
 * @example
 * ```ts
 * await waitForCollectors('the sampler to receive spans', [sampler], async () => (await sampler.metric('otelcol_receiver_accepted_spans')) > 0);
 * ```
 */
export function waitForCollectors<T>(
  what: string,
  collectors: readonly RunningCollector[],
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  return pollUntil(what, probe, {
    timeoutMs,
    label: 'collector output',
    output: () => collectors.map((collector) => `--- ${collector.name} ---\n${collector.logs().slice(-8000)}`).join('\n'),
  });
}
