/**
 * The published package, as a user gets it: `npm pack`, install the tarball into an empty folder,
 * then `import` and `require` every entry point. Also lints the packed exports with publint and
 * @arethetypeswrong/cli.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'toolhooks-pack-'));
const app = join(work, 'app');
let tarball = '';

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });
}

beforeAll(() => {
  run('npm', ['pack', '--pack-destination', work], root);
  const file = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (file === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
  tarball = join(work, file);
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, '@opentelemetry/api@^1.9.0'], app);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const script = `
  const { HookRunner, executeTool, skip, VERSION } = toolhooks;
  const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }]);
  executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' })
    .then((result) => console.log(JSON.stringify({ result, version: VERSION })));
`;

describe('the packed package', () => {
  it('works with import in an empty project', () => {
    const out = run('node', ['--input-type=module', '-e', `import * as toolhooks from 'toolhooks';\n${script}`], app);
    expect(JSON.parse(out)).toEqual({ result: 'stub', version: '0.1.0' });
  });

  it('works with require in an empty project', () => {
    const out = run('node', ['-e', `const toolhooks = require('toolhooks');\n${script}`], app);
    expect(JSON.parse(out)).toEqual({ result: 'stub', version: '0.1.0' });
  });

  it('loads toolhooks/hooks and toolhooks/node with import and with require', () => {
    const check = `
      const ok = [typeof hooks.MetricsHook, typeof hooks.LoggingHook, typeof node.startTelemetry, typeof node.TreeSpanExporter];
      console.log(JSON.stringify(ok));
    `;
    const esm = run('node', ['--input-type=module', '-e', `import * as hooks from 'toolhooks/hooks'; import * as node from 'toolhooks/node';\n${check}`], app);
    const cjs = run('node', ['-e', `const hooks = require('toolhooks/hooks'); const node = require('toolhooks/node');\n${check}`], app);
    expect(JSON.parse(esm)).toEqual(['function', 'function', 'function', 'function']);
    expect(JSON.parse(cjs)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('passes publint', () => {
    const out = run(join(root, 'node_modules/.bin/publint'), ['--pack', 'false', '--strict'], root);
    expect(out).toContain('All good');
  });

  it('passes @arethetypeswrong/cli for every entry point', () => {
    // Exits non-zero with a table of problems when any resolution mode gets the wrong types.
    const out = run(join(root, 'node_modules/.bin/attw'), [tarball, '--format', 'json'], root);
    const report = JSON.parse(out) as { analysis?: { problems?: unknown[] } };
    expect(report.analysis?.problems).toEqual([]);
  });
});
