/**
 * A real `prometheus` process for end-to-end tests: 127.0.0.1 on a free port, temporary storage, 1 s
 * scrape and rule evaluation, one scrape target, one rules file. The rules are the real ones; the only
 * change the harness may make is `for:` → `0s` (in a temporary copy) so a test need not wait minutes.
 *
 * @example
 * ```ts
 * const prometheus = await startPrometheus({
 *   binary: requirePrograms(ctx, ['prometheus']).prometheus,
 *   target: '127.0.0.1:9464',
 *   rulesFile: 'deploy/prometheus/alerts.yml',
 *   zeroFor: true,
 * });
 * try {
 *   await prometheus.waitFor('the alert to fire', async () =>
 *     (await prometheus.alerts()).find((a) => a.labels['alertname'] === 'ToolhooksAbortRateHigh'));
 * } finally {
 *   await prometheus.stop();
 * }
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { findProgram } from './programs.js';
import { freePort } from './ports.js';
import { pollUntil } from './poll.js';

/** Options of {@link startPrometheus}. */
export interface PrometheusOptions {
  /** `host:port` scraped every second, e.g. the example app's Prometheus endpoint. */
  readonly target: string;
  /** Path of the scraped endpoint; default `/metrics`. */
  readonly metricsPath?: string;
  /** Rules file to load, e.g. `deploy/prometheus/alerts.yml`. */
  readonly rulesFile?: string;
  /** Load a temporary copy of `rulesFile` with every `for:` set to `0s`; the expressions stay as they are. */
  readonly zeroFor?: boolean;
  /** The prometheus executable; default: `prometheus` from PATH. */
  readonly binary?: string;
  /** How long to wait for `/-/ready`; default 20 s. */
  readonly readyTimeoutMs?: number;
}

/** One alert as `/api/v1/alerts` reports it (pending or firing; resolved alerts are not listed). */
export interface PrometheusAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly state: 'pending' | 'firing';
  readonly activeAt: string;
  /** The expression's value when the alert was last evaluated. */
  readonly value: number;
}

/** One element of an instant vector from `/api/v1/query`. */
export interface PrometheusSample {
  readonly metric: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A scrape target as `/api/v1/targets` reports it. */
export interface PrometheusTarget {
  readonly scrapeUrl: string;
  readonly health: 'up' | 'down' | 'unknown';
  readonly lastError: string;
}

/** A started Prometheus. Always call {@link RunningPrometheus.stop}. */
export interface RunningPrometheus {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The temporary directory holding the config, the rules copy and the TSDB. */
  readonly dir: string;
  /** Path of the rules file Prometheus actually loaded (the temporary copy when `zeroFor`). */
  readonly rulesFile: string | undefined;
  /** Active (pending and firing) alerts. */
  alerts(): Promise<PrometheusAlert[]>;
  /** Instant query at the current time; only vector results are supported. */
  query(expr: string): Promise<PrometheusSample[]>;
  /** Active scrape targets. */
  targets(): Promise<PrometheusTarget[]>;
  /** Polls `probe` until it returns something other than undefined/false; throws after `timeoutMs`. */
  waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  /** What Prometheus logged (the last 64 KiB), for failure messages. */
  logs(): string;
  /** Kills the process and removes the temporary directory. Safe to call twice. */
  stop(): Promise<void>;
}

const LOG_LIMIT = 64 * 1024;

/**
 * Returns `rules` with every `for:` duration replaced by `0s`; nothing else changes. Works on block-style
 * YAML (one `for:` per line), which is how deploy/prometheus/alerts.yml is written.
 *
 * @example
 * ```ts
 * zeroForDurations('        for: 5m\n'); // '        for: 0s\n'
 * ```
 */
export function zeroForDurations(rules: string): string {
  return rules.replace(/^(\s*)for:[ \t]*[^\s#]+/gm, '$1for: 0s');
}

/**
 * The generated prometheus.yml: 1 s scrape and evaluation, one target, one rules file. JSON is valid
 * YAML, and JSON.stringify does the quoting.
 */
function configFor(target: string, metricsPath: string, rulesFile: string | undefined): string {
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: rulesFile === undefined ? [] : [rulesFile],
    scrape_configs: [{ job_name: 'toolhooks', metrics_path: metricsPath, static_configs: [{ targets: [target] }] }],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly log: { text: string };
}

async function launch(binary: string, dir: string, readyTimeoutMs: number): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = { text: '' };
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const append = (chunk: Buffer): void => {
    log.text = (log.text + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<string>((done) => {
    child.once('error', (error) => done(`could not start ${binary}: ${error.message}`));
    child.once('exit', (code, signal) => done(`prometheus exited (${code ?? signal}) before it was ready`));
  });

  const deadline = Date.now() + readyTimeoutMs;
  let exitReason: string | undefined;
  void exited.then((reason) => (exitReason = reason));
  while (Date.now() < deadline) {
    if (exitReason !== undefined) throw new StartError(exitReason, log.text);
    try {
      const response = await fetch(`${url}/-/ready`);
      if (response.ok) return { child, url, log };
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new StartError(`prometheus was not ready after ${readyTimeoutMs} ms`, log.text);
}

class StartError extends Error {
  constructor(
    reason: string,
    readonly logs: string,
  ) {
    super(`${reason}\n--- prometheus log ---\n${logs}`);
    this.name = 'StartError';
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), delay(5_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

interface ApiResponse {
  status: 'success' | 'error';
  error?: string;
  data?: unknown;
}

async function apiGet(url: string): Promise<unknown> {
  const response = await fetch(url);
  const body = (await response.json()) as ApiResponse;
  if (body.status !== 'success') throw new Error(`${url}: ${body.error ?? response.statusText}`);
  return body.data;
}

interface RawAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

interface RawVector {
  resultType: string;
  result: { metric: Record<string, string>; value: [number, string] }[];
}

interface RawTarget {
  scrapeUrl: string;
  health: 'up' | 'down' | 'unknown';
  lastError: string;
}

/**
 * Starts Prometheus and resolves once it is ready (`/-/ready`); rejects with Prometheus' log when it
 * exits or never gets ready (for instance when it rejects the rules file).
 *
 * @example
 * ```ts
 * const prometheus = await startPrometheus({ target: '127.0.0.1:9464', rulesFile: 'deploy/prometheus/alerts.yml' });
 * ```
 */
export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  const binary = options.binary ?? findProgram('prometheus');
  if (binary === undefined) throw new Error('prometheus not found on PATH (apt-get install prometheus)');
  const dir = await mkdtemp(join(tmpdir(), 'toolhooks-prometheus-'));
  try {
    let rulesFile: string | undefined;
    if (options.rulesFile !== undefined) {
      rulesFile = resolve(options.rulesFile);
      if (options.zeroFor === true) {
        const copy = join(dir, 'rules.yml');
        await writeFile(copy, zeroForDurations(await readFile(rulesFile, 'utf8')));
        rulesFile = copy;
      }
    }
    await writeFile(join(dir, 'prometheus.yml'), configFor(options.target, options.metricsPath ?? '/metrics', rulesFile));

    let started: Started | undefined;
    // The free port may be taken between freePort() and Prometheus binding it; try another one then.
    for (let attempt = 1; started === undefined; attempt += 1) {
      try {
        started = await launch(binary, dir, options.readyTimeoutMs ?? 20_000);
      } catch (error) {
        const portTaken = error instanceof StartError && /address already in use/.test(error.logs);
        if (!portTaken || attempt === 3) throw error;
      }
    }
    return running(started, dir, rulesFile);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function running({ child, url, log }: Started, dir: string, rulesFile: string | undefined): RunningPrometheus {
  let stopped: Promise<void> | undefined;
  return {
    url,
    dir,
    rulesFile,
    async alerts() {
      const data = (await apiGet(`${url}/api/v1/alerts`)) as { alerts: RawAlert[] };
      return data.alerts.map((alert) => ({ ...alert, value: Number(alert.value) }));
    },
    async query(expr) {
      const data = (await apiGet(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)) as RawVector;
      if (data.resultType !== 'vector') throw new Error(`query returned a ${data.resultType}, not a vector: ${expr}`);
      return data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
    },
    async targets() {
      const data = (await apiGet(`${url}/api/v1/targets?state=active`)) as { activeTargets: RawTarget[] };
      return data.activeTargets.map(({ scrapeUrl, health, lastError }) => ({ scrapeUrl, health, lastError }));
    },
    waitFor: <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number) =>
      pollUntil(what, probe, { label: 'prometheus log', output: () => log.text, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
    logs: () => log.text,
    stop() {
      stopped ??= stopChild(child).finally(() => rm(dir, { recursive: true, force: true }));
      return stopped;
    },
  };
}

/**
 * The Prometheus label name of an OTel attribute, as both the collector's exporter
 * (UnderscoreEscapingWithSuffixes) and @opentelemetry/exporter-prometheus spell it.
 *
 * @example
 * ```ts
 * prometheusLabel('gen_ai.tool.name'); // 'gen_ai_tool_name'
 * ```
 */
export function prometheusLabel(attribute: string): string {
  return attribute.replace(/[^a-zA-Z0-9_]/g, '_');
}

/**
 * The Prometheus name of an OTel counter: escaped like a label, then `_total`. Units in braces
 * (`{call}`) add no suffix in either exporter.
 *
 * @example
 * ```ts
 * prometheusCounter('toolhooks.tool.calls'); // 'toolhooks_tool_calls_total'
 * ```
 */
export function prometheusCounter(metric: string): string {
  const name = prometheusLabel(metric);
  return name.endsWith('_total') ? name : `${name}_total`;
}
