/**
 * A fixture app driven line by line on stdin from a test: each command line is answered with one JSON line
 * on stdout. The app runs under tsx with the test's environment plus `env`; stderr is kept for failures.
 *
 * @example
 * ```ts
 * const app = startDrivenApp(fixturePath, { OTEL_EXPORTER_OTLP_ENDPOINT: gateway.otlpHttpUrl });
 * const report = await app.send<BatchReport>('run first 100');
 * const { code, stderr } = await app.exit();
 * ```
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A started app. Always call {@link DrivenApp.exit}. */
export interface DrivenApp {
  /** Writes `command` and resolves with the app's next JSON line; rejects if the app exits first. */
  send<T>(command: string): Promise<T>;
  /** Sends `exit`, waits for the process (SIGKILL after 20 s); safe to call twice. */
  exit(): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Starts `fixture` (a .ts file) with `node --import tsx` in the repository root.
 *
 * @example
 * ```ts
 * const app = startDrivenApp('test/system/pipeline/fixtures/pipeline-app.ts', { OTEL_SERVICE_NAME: 'a' });
 * ```
 */
export function startDrivenApp(fixture: string, env: Readonly<Record<string, string>>): DrivenApp {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let exiting: Promise<{ code: number | null; stderr: string }> | undefined;
  return {
    async send<T>(command: string): Promise<T> {
      child.stdin.write(`${command}\n`);
      const next = await Promise.race([lines.next(), exited.then(() => undefined)]);
      if (next === undefined || next.done === true) throw new Error(`the app exited during "${command}":\n${stderr}`);
      return JSON.parse(next.value) as T;
    },
    exit() {
      exiting ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.stdin.end('exit\n');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        const code = await exited;
        clearTimeout(timer);
        return { code, stderr };
      })();
      return exiting;
    },
  };
}
