/**
 * The packed package installed into apps that already run an OpenTelemetry SDK, one per line:
 * - SDK 3 (`@opentelemetry/sdk-node` 0.301, API 1.10): no peer warning, `npm ls` clean, one copy of every
 *   OTel package;
 * - SDK 2 (`sdk-node` 0.223, API 1.9): installs without error or second SDK, the core and
 *   `toolhooks/hooks` record into the app's own providers (logs through `@opentelemetry/api-logs`), no SDK
 *   code of toolhooks' is loaded, and `toolhooks/node` fails with one error naming what it needs;
 * - SDK 2 without `sdk-node` (API 1.9 pinned, providers from `sdk-trace-base` / `sdk-trace-node` 2.x, as
 *   Langfuse and Traceloop users have): installs with no warning at all and nothing added of an SDK;
 * - an empty app installing `toolhooks @opentelemetry/sdk-node`, as the README says: `toolhooks/node` works.
 * docs/installation.md has the numbers these installs give.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, run } from '../../support/packed-app.js';

const work = mkdtempSync(join(tmpdir(), 'toolhooks-sdk-lines-'));
let tarball = '';

/** Installs `packages` and the tarball into a new app in one `npm install`; returns its folder and npm's stderr. */
function appWith(name: string, packages: readonly string[]): { app: string; stderr: string } {
  const app = join(work, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, version: '1.0.0' }));
  const result = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages, tarball], { cwd: app, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm install failed in ${name}:\n${result.stderr}`);
  return { app, stderr: result.stderr };
}

/** Every installed `@opentelemetry/*` package instance, as `name@version` per copy. */
function otelInstances(app: string): string[] {
  const lines = run('npm', ['ls', '--all', '--parseable', '--long'], app).split('\n');
  return lines.flatMap((line) => {
    const match = /\/node_modules\/@opentelemetry\/[^/:]+:(@opentelemetry\/[^@]+@[^:]+)/.exec(line);
    return match?.[1] === undefined ? [] : [match[1]];
  });
}

/** Runs a script in the app and returns the one JSON line it prints (other lines are the hooks' logs). */
function runJson<T>(app: string, file: string): T {
  const lines = execFileSync('node', [file], { cwd: app, encoding: 'utf8' }).trim().split('\n');
  return JSON.parse(lines.find((line) => line.startsWith('{"result"')) ?? '{}') as T;
}

beforeAll(() => {
  run('npm', ['pack', '--pack-destination', work], repoRoot);
  const file = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (file === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
  tarball = join(work, file);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('an app on the SDK 3 line', () => {
  let app = '';
  let stderr = '';
  beforeAll(() => {
    ({ app, stderr } = appWith('sdk3', ['@opentelemetry/sdk-node@0.301.0', '@opentelemetry/api@~1.10.0']));
  }, 300_000);

  it('installs toolhooks without a peer warning, npm ls clean, one copy of every OTel package', () => {
    expect(stderr).not.toMatch(/ERESOLVE|peer dep/i);
    expect(() => run('npm', ['ls', '--all'], app)).not.toThrow();
    const names = otelInstances(app).map((instance) => instance.slice(0, instance.lastIndexOf('@')));
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(existsSync(join(app, 'node_modules/toolhooks/node_modules/@opentelemetry'))).toBe(false);
  });

  it('the app\'s NodeSDK gets the spans and the LoggingHook records (registered through API 1.10 logs)', () => {
    const script = `
      import { NodeSDK } from '@opentelemetry/sdk-node';
      import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
      import { InMemoryLogRecordExporter, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
      import { HookRunner, executeTool, skip } from 'toolhooks';
      import { LoggingHook } from 'toolhooks/hooks';
      const spans = new InMemorySpanExporter();
      const records = new InMemoryLogRecordExporter();
      const sdk = new NodeSDK({
        spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
        logRecordProcessors: [new SimpleLogRecordProcessor({ exporter: records })],
        metricReaders: [],
      });
      sdk.start();
      const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }, new LoggingHook()]);
      const result = await executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' });
      // SDK 3's simple processors export asynchronously.
      for (let i = 0; i < 100 && (spans.getFinishedSpans().length < 2 || records.getFinishedLogRecords().length < 2); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      console.log(JSON.stringify({
        result,
        spans: spans.getFinishedSpans().map((span) => span.name),
        records: records.getFinishedLogRecords().map((record) => record.body),
      }));
      await sdk.shutdown();
    `;
    writeFileSync(join(app, 'attach.mjs'), script);
    const out = runJson<{ result: string; spans: string[]; records: string[] }>(app, 'attach.mjs');
    expect(out.result).toBe('stub');
    expect(out.spans).toContain('execute_tool search');
    expect(out.records).toContain('tool call skipped');
  });
});

describe('an app on the SDK 2 line without sdk-node (API 1.9, sdk-trace-base / sdk-trace-node 2.x)', () => {
  let app = '';
  let stderr = '';
  let before: string[] = [];
  beforeAll(() => {
    const packages = ['@opentelemetry/api@1.9.1', '@opentelemetry/sdk-trace-base@2.12.0', '@opentelemetry/sdk-trace-node@2.12.0'];
    app = join(work, 'sdk2-bare');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sdk2-bare', private: true, version: '1.0.0' }));
    // The app as it was, then `npm install toolhooks` into it, as a user would.
    const setup = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages], { cwd: app, encoding: 'utf8' });
    if (setup.status !== 0) throw new Error(`npm install failed in sdk2-bare:\n${setup.stderr}`);
    before = otelInstances(app);
    const result = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm install toolhooks failed in sdk2-bare:\n${result.stderr}`);
    stderr = result.stderr;
  }, 300_000);

  it('installs toolhooks with no flag and no warning, npm ls clean, adding no OpenTelemetry package', () => {
    expect(stderr).not.toMatch(/ERESOLVE|peer dep|npm warn/i);
    expect(() => run('npm', ['ls', '--all'], app)).not.toThrow();
    expect(existsSync(join(app, 'node_modules/@opentelemetry/sdk-node'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/toolhooks/node_modules/@opentelemetry'))).toBe(false);
    expect(otelInstances(app).sort()).toEqual([...before].sort());
  });

  it("records spans into the app's NodeTracerProvider", () => {
    const script = `
      const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
      const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
      const spans = new InMemorySpanExporter();
      new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).register();
      const { HookRunner, executeTool, skip } = require('toolhooks');
      const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }]);
      executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' }).then((result) => {
        console.log(JSON.stringify({ result, spans: spans.getFinishedSpans().map((span) => span.name) }));
      });
    `;
    writeFileSync(join(app, 'attach.cjs'), script);
    const out = runJson<{ result: string; spans: string[] }>(app, 'attach.cjs');
    expect(out.result).toBe('stub');
    expect(out.spans).toContain('execute_tool search');
  });

  it('toolhooks/node says what it needs (require), or names the missing SDK package (import)', () => {
    writeFileSync(join(app, 'node.cjs'), `try { require('toolhooks/node'); } catch (error) { console.log(error.message); }`);
    expect(execFileSync('node', ['node.cjs'], { cwd: app, encoding: 'utf8' })).toContain('toolhooks/node needs @opentelemetry/api 1.10 or newer');
    writeFileSync(join(app, 'node.mjs'), `import('toolhooks/node').catch((error) => console.log(error.message));`);
    expect(execFileSync('node', ['node.mjs'], { cwd: app, encoding: 'utf8' })).toMatch(/Cannot find (package|module) '@opentelemetry\//);
  });
});

describe('an empty app: npm install toolhooks @opentelemetry/sdk-node (the README)', () => {
  let app = '';
  let stderr = '';
  beforeAll(() => {
    ({ app, stderr } = appWith('empty', ['@opentelemetry/sdk-node@^0.301.0']));
  }, 300_000);

  it('installs with no warning, npm ls clean, one copy of every OTel package', () => {
    expect(stderr).not.toMatch(/ERESOLVE|peer dep/i);
    expect(() => run('npm', ['ls', '--all'], app)).not.toThrow();
    const names = otelInstances(app).map((instance) => instance.slice(0, instance.lastIndexOf('@')));
    expect(names).toContain('@opentelemetry/api');
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('toolhooks/node works: startTelemetry prints the trace tree of a call', () => {
    writeFileSync(
      join(app, 'tree.mjs'),
      `
      import { HookRunner, executeTool, skip } from 'toolhooks';
      import { startTelemetry } from 'toolhooks/node';
      const telemetry = startTelemetry({ console: 'tree' });
      const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }]);
      const result = await executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' });
      await telemetry.shutdown();
      console.log(JSON.stringify({ result }));
    `,
    );
    const out = execFileSync('node', ['tree.mjs'], { cwd: app, encoding: 'utf8' });
    expect(out).toContain('execute_tool search');
    expect(out).toContain('{"result":"stub"}');
  });
});

describe('an app on the SDK 2 line', () => {
  let app = '';
  let stderr = '';
  beforeAll(() => {
    ({ app, stderr } = appWith('sdk2', [
      '@opentelemetry/sdk-node@0.223.0',
      '@opentelemetry/api@1.9.1',
      '@opentelemetry/sdk-trace-base@2.12.0',
      '@opentelemetry/sdk-metrics@2.12.0',
      '@opentelemetry/sdk-logs@0.223.0',
    ]));
  }, 300_000);

  it('installs toolhooks without error or peer warning, and brings no second SDK', () => {
    expect(stderr).not.toMatch(/ERESOLVE|peer dep/i);
    expect(() => run('npm', ['ls', '--all'], app)).not.toThrow();
    expect(existsSync(join(app, 'node_modules/toolhooks/node_modules/@opentelemetry'))).toBe(false);
    // Nothing of the SDK 3 line (3.x, 0.30x) was installed next to the app's SDK 2.
    expect(otelInstances(app).filter((instance) => /@(3\.|0\.30\d\.)/.test(instance))).toEqual([]);
  });

  it('the core and toolhooks/hooks record spans and log records into the app\'s own providers, loading no SDK of their own', () => {
    const script = `
      const { trace } = require('@opentelemetry/api');
      const { logs } = require('@opentelemetry/api-logs');
      const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
      const { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } = require('@opentelemetry/sdk-logs');
      const spans = new InMemorySpanExporter();
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
      const records = new InMemoryLogRecordExporter();
      logs.setGlobalLoggerProvider(new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: records })] }));
      const { HookRunner, executeTool, skip } = require('toolhooks');
      const { LoggingHook } = require('toolhooks/hooks');
      const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }, new LoggingHook()]);
      executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' }).then((result) => {
        const loaded = Object.keys(require.cache).filter((path) => /@opentelemetry[\\\\/]sdk-node[\\\\/]/.test(path));
        console.log(JSON.stringify({
          result,
          spans: spans.getFinishedSpans().map((span) => span.name),
          records: records.getFinishedLogRecords().map((record) => record.body),
          sdkNodeLoaded: loaded.length,
        }));
      });
    `;
    writeFileSync(join(app, 'attach.cjs'), script);
    const out = runJson<{ result: string; spans: string[]; records: string[]; sdkNodeLoaded: number }>(app, 'attach.cjs');
    expect(out.result).toBe('stub');
    expect(out.spans).toContain('execute_tool search');
    expect(out.records).toContain('tool call skipped');
    expect(out.sdkNodeLoaded).toBe(0);
  });

  it('toolhooks/node fails to load with one error naming what it needs, through import and require', () => {
    for (const [file, code] of [
      ['node.mjs', `import('toolhooks/node').catch((error) => console.log(error.message));`],
      ['node.cjs', `try { require('toolhooks/node'); } catch (error) { console.log(error.message); }`],
    ] as const) {
      writeFileSync(join(app, file), code);
      const out = execFileSync('node', [file], { cwd: app, encoding: 'utf8' });
      expect(out).toContain('toolhooks/node needs @opentelemetry/api 1.10 or newer');
      expect(out).toContain('without toolhooks/node');
    }
  });
});
