/**
 * An example app that serves its metrics for Prometheus (`examples/*-alert-app.ts`), started as a
 * user would (`npx tsx examples/<name>.ts`) with `PROMETHEUS_PORT` set, and ready once it says
 * "serving metrics" — alone, or with a real Prometheus scraping it and evaluating the real alert rules
 * (`startAlertStack`). The test that starts them stops them.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePort } from './ports.js';
import type { RunningPrometheus } from './prometheus.js';
import { startPrometheus } from './prometheus.js';

const root = resolve(import.meta.dirname, '../..');

/** A started example app: the process, and everything it printed so far. */
export interface ExampleApp {
  readonly child: ChildProcessWithoutNullStreams;
  output(): string;
}

/** Starts `examples/<name>.ts` serving metrics on `port`; rejects with its output if it exits or takes over 30 s. */
export async function startMetricsApp(name: string, port: number): Promise<ExampleApp> {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [`examples/${name}.ts`], {
    cwd: root,
    env: { ...process.env, PROMETHEUS_PORT: String(port) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const app: ExampleApp = { child, output: () => output };
  await new Promise<void>((ready, failed) => {
    const timer = setTimeout(() => failed(new Error(`the app did not start:\n${output}`)), 30_000);
    child.stdout.on('data', () => {
      if (output.includes('serving metrics')) {
        clearTimeout(timer);
        ready();
      }
    });
    child.on('exit', (code) => failed(new Error(`the app exited with ${String(code)}:\n${output}`)));
  });
  return app;
}

/** An example app and the Prometheus that scrapes it. Always call {@link AlertStack.stop}. */
export interface AlertStack {
  readonly app: ExampleApp;
  /** Where the app serves its metrics. */
  readonly port: number;
  readonly prometheus: RunningPrometheus;
  stop(): Promise<void>;
}

/**
 * Starts `examples/<name>.ts` and a real `prometheus` scraping it every second with
 * deploy/prometheus/alerts.yml (the real expressions; only `for:` zeroed in a temporary copy).
 */
export async function startAlertStack(name: string, binary: string): Promise<AlertStack> {
  const port = await freePort();
  const app = await startMetricsApp(name, port);
  try {
    const prometheus = await startPrometheus({
      binary,
      target: `127.0.0.1:${port}`,
      rulesFile: join(root, 'deploy/prometheus/alerts.yml'),
      zeroFor: true,
    });
    return {
      app,
      port,
      prometheus,
      stop: async () => {
        await prometheus.stop();
        app.child.kill('SIGKILL');
      },
    };
  } catch (error) {
    app.child.kill('SIGKILL');
    throw error;
  }
}
