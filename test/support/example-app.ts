/**
 * An example app that serves its metrics for Prometheus (`examples/*-alert-app.ts`), started as a
 * user would (`npx tsx examples/<name>.ts`) with `PROMETHEUS_PORT` set, and ready once it says
 * "serving metrics". The test that starts it kills it (`child.kill`).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

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
