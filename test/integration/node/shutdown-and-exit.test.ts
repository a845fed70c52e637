/**
 * How an app ends with startTelemetry(), each app in its own process against real local servers:
 * calls still running when `shutdown()` is called, a dead collector (hanging, resetting, refusing,
 * throttling) and how soon the process can exit after `shutdown()` resolves, a Prometheus port that
 * cannot listen, a second `startTelemetry()`, and an app that never calls `shutdown()`.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../../support/otlp-receiver.js';
import { freePort } from '../../support/ports.js';
import { ATTR_GEN_AI_TOOL_CALL_ID, METRIC_TOOL_CALLS, SPAN_EXECUTE_TOOL_PREFIX } from '../../../src/telemetry/semconv.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/exit-app.ts', import.meta.url));
const BUSY_PRELOAD = fileURLToPath(new URL('./fixtures/busy-port-preload.ts', import.meta.url));
const BUSY_APP = fileURLToPath(new URL('./fixtures/busy-port-app.ts', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  /** When each `{ "event": … }` line of the app reached this process, and when the process exited (ms). */
  readonly seen: ReadonlyMap<string, number>;
  readonly exitedAt: number;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function run(args: readonly string[], env: Record<string, string>, limitMs = 20_000): Promise<Run> {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OTEL_')) base[name] = value;
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  cleanups.push(() => void child.kill('SIGKILL'));
  let stderr = '';
  const seen = new Map<string, number>();
  child.stderr.on('data', (chunk: Buffer) => {
    const now = performance.now();
    stderr += chunk.toString('utf8');
    for (const match of stderr.matchAll(/\{"event":"([a-z-]+)"/g)) if (!seen.has(match[1] as string)) seen.set(match[1] as string, now);
  });
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, seen, exitedAt: performance.now() });
    });
  });
}

function runApp(scenario: string, endpoint: string, extra: Record<string, string> = {}): Promise<Run> {
  return run([APP], { EXIT_APP_SCENARIO: scenario, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_METRIC_EXPORT_INTERVAL: '60000', ...extra });
}

function since(result: Run, event: string): number {
  const at = result.seen.get(event);
  expect(at, `${event} in ${result.stderr}`).toBeDefined();
  return result.exitedAt - (at as number);
}

/** A collector that accepts each connection and resets it (RST) as soon as a request arrives. */
async function resettingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The lines toolhooks printed, without the app's own JSON report lines. */
function toolhooksLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('toolhooks') && !line.startsWith('{'));
}

describe('shutdown() while calls are in flight', () => {
  it('delivers what ends before the deadline, spans and log records, and counts what could not end in the one-line report', async () => {
    const receiver = await OtlpReceiver.start();
    cleanups.push(() => receiver.stop());
    const result = await runApp('in-flight', receiver.url);
    expect(result.code, result.stderr).toBe(0);
    const ended = (id: string) => id.startsWith('quick-') || id.startsWith('soon-');
    const callSpans = receiver.spans().filter((span) => span.name === `${SPAN_EXECUTE_TOOL_PREFIX} work`);
    const ids = callSpans.map((span) => String(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]));
    expect(ids.filter(ended).sort()).toHaveLength(40);
    expect(ids.filter((id) => !ended(id))).toEqual([]);
    const logIds = receiver.logs().map((record) => String(record.attributes[ATTR_GEN_AI_TOOL_CALL_ID] ?? ''));
    expect(new Set(logIds.filter(ended)).size).toBe(40);
    const report = toolhooksLines(result.stderr).filter((line) => line.includes('TOOLHOOKS_TELEMETRY_DROPPED') || line.includes('dropped at shutdown'));
    expect(report, result.stderr).toHaveLength(1);
    // The 20 late calls each left their execute_tool and toolhooks.execute spans open.
    expect(report[0]).toMatch(/40 spans of calls still running/);
  }, 30_000);
});

describe('a dead collector at exit', () => {
  it.each(['hang', 'reset', 'refused', '429'] as const)('%s: shutdown() resolves within about 2 s and nothing keeps the process alive after it', async (fault) => {
    let endpoint: string;
    if (fault === 'refused') {
      endpoint = `http://127.0.0.1:${await freePort()}`;
    } else if (fault === 'reset') {
      const server = await resettingServer();
      cleanups.push(server.close);
      endpoint = server.url;
    } else {
      const receiver = await OtlpReceiver.start();
      cleanups.push(() => receiver.stop());
      receiver.respond(fault === 'hang' ? 'hang' : { status: 429, retryAfterSeconds: 1 });
      endpoint = receiver.url;
    }
    // Exports are under way when shutdown begins: batches every 100 ms, metrics every 250 ms.
    const result = await runApp('dead-collector', endpoint, { OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BLRP_SCHEDULE_DELAY: '100', OTEL_METRIC_EXPORT_INTERVAL: '250' });
    expect(result.code, result.stderr).toBe(0);
    const shutdownMs = (result.seen.get('shutdown-resolved') ?? Infinity) - (result.seen.get('shutdown-called') ?? 0);
    expect(shutdownMs, result.stderr).toBeLessThan(3_000);
    console.log(`${fault}: shutdown ${Math.round(shutdownMs)} ms, exit ${Math.round(since(result, 'shutdown-resolved'))} ms after it resolved`);
    expect(since(result, 'shutdown-resolved'), result.stderr).toBeLessThan(1_000);
    expect(toolhooksLines(result.stderr).filter((line) => line.includes('dropped at shutdown'))).toHaveLength(1);
  }, 30_000);
});

describe('a Prometheus port that cannot listen', () => {
  async function busyPort(): Promise<number> {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const address = holder.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  }

  it('prints one line naming the port with no diag logger and nobody awaiting ready; the app runs on', async () => {
    const port = await busyPort();
    const result = await run(['--import', BUSY_PRELOAD, BUSY_APP], { BUSY_PORT: String(port), PRELOAD_RECIPE: 'ignore', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('app done');
    const lines = result.stderr.split('\n').filter((line) => line.includes(String(port)));
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/already in use/);
  }, 30_000);

  it("the docs' preload recipe stops the app with exit code 1, and says why first", async () => {
    const port = await busyPort();
    const result = await run(['--import', BUSY_PRELOAD, BUSY_APP], { BUSY_PORT: String(port), PRELOAD_RECIPE: 'exit', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.includes(String(port)));
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/already in use/);
  }, 30_000);
});

describe('misuse that loses telemetry says so, once', () => {
  it('a second startTelemetry() with other options: one warning with a code, however many calls', async () => {
    const receiver = await OtlpReceiver.start();
    cleanups.push(() => receiver.stop());
    const result = await runApp('twice', receiver.url);
    expect(result.code, result.stderr).toBe(0);
    const lines = toolhooksLines(result.stderr).filter((line) => line.includes('TOOLHOOKS_ALREADY_STARTED'));
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/already running/);
  }, 30_000);

  it('exiting without await telemetry.shutdown(): one line with a code says the spans were not exported', async () => {
    const receiver = await OtlpReceiver.start();
    cleanups.push(() => receiver.stop());
    // A long batch delay: the spans are still queued when the app ends.
    const result = await runApp('no-shutdown', receiver.url, { OTEL_BSP_SCHEDULE_DELAY: '60000', OTEL_BLRP_SCHEDULE_DELAY: '60000' });
    expect(result.code, result.stderr).toBe(0);
    const lines = toolhooksLines(result.stderr).filter((line) => line.includes('TOOLHOOKS_NO_SHUTDOWN'));
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/without .*shutdown\(\)/);
  }, 30_000);
});

describe('more series than the SDK keeps per metric', () => {
  it('says once, with a code, which metrics merged series into otel.metric.overflow', async () => {
    const receiver = await OtlpReceiver.start();
    cleanups.push(() => receiver.stop());
    const result = await runApp('many-tools', receiver.url, { OTEL_METRIC_EXPORT_INTERVAL: '300' });
    expect(result.code, result.stderr).toBe(0);
    // The SDK did merge: the overflow series reached the collector.
    const overflowed = receiver.metrics().filter((metric) => metric.dataPoints.some((point) => point.attributes['otel.metric.overflow'] === true));
    expect(overflowed.map((metric) => metric.name)).toContain(METRIC_TOOL_CALLS);
    const lines = toolhooksLines(result.stderr).filter((line) => line.includes('TOOLHOOKS_METRIC_OVERFLOW'));
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toContain(METRIC_TOOL_CALLS);
    expect(lines[0]).toMatch(/2000 series/);
  }, 30_000);
});
