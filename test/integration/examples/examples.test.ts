/**
 * Every example runs as a user would run it (`npx tsx examples/<name>.ts`) and prints what its
 * comments promise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../../support/otlp-receiver.js';
import { runExample, runExampleAsync } from '../../support/run-example.js';

describe('examples', () => {
  it('quickstart: runs, redirects to the sandbox, aborts rm -rf', () => {
    const out = runExample('quickstart');
    expect(out).toContain('result: host ran: ls');
    expect(out).toContain('result: sandbox ran: curl https://example.com');
    expect(out).toContain('aborted by policy: destructive command');
    expect(out).toMatch(/execute_tool shell .*outcome=aborted/);
    expect(out).toMatch(/policy: redirect → sandbox_shell "network goes through the sandbox"/);
  });

  it('policy-gate: a Cedar policy denies rm -rf, redirects curl, asks about outside mail, with the policy ids on the tree', () => {
    const out = runExample('policy-gate');
    expect(out).toContain('shell {"cmd":"ls"}: ran ls');
    expect(out).toContain('shell {"cmd":"rm -rf /"}: refused (destructive command)');
    expect(out).toContain('shell {"cmd":"curl https://example.com"}: sandbox ran: curl https://example.com');
    expect(out).toContain('send_email {"to":"eve@elsewhere.org"}: Tool call denied: on call says no (mail leaves the company)');
    expect(out).toMatch(/• policy: abort "destructive command" \[no-rm\]/);
    expect(out).toMatch(/• policy: redirect → sandbox_shell "network goes through the sandbox" \[sandbox-network\]/);
    expect(out).toMatch(/• policy: ask "mail leaves the company" \[mail-outside\]/);
    expect(out).toMatch(/execute_tool send_email .*outcome=denied/);
  });

  it('fail-closed-gate: a hanging policy service times out and the fail-closed gate refuses the call', () => {
    const out = runExample('fail-closed-gate');
    expect(out).toContain('ls: ran ls');
    expect(out).toContain('cat notes.txt: refused (hook policy-gate failed: timed out after 200 ms)');
    expect(out).toContain('sudo reboot: refused (policy denies sudo)');
    expect(out).toMatch(/policy-gate: timeout HookTimeoutError: timed out after 200 ms \[fail-closed\]/);
  });

  it('retry: the enriched note fixes the query; exhaustion returns the failure payload', () => {
    const out = runExample('retry');
    expect(out).toContain('sql: SELECT sum(amount) FROM orders -- draft 2');
    expect(out).toContain('exhausted: {"success":false,"error":"timeout","attempts":2}');
    expect(out).toMatch(/execute_tool sql_writer .*outcome=recovered/);
  });

  it('compound-tool: the hook bounds the query the agent wrote', () => {
    const out = runExample('compound-tool');
    expect(out).toContain("result: ran: SELECT * FROM orders WHERE note LIKE '%refund%' LIMIT 100");
    expect(out).toContain('state.queries: 1');
  });

  it('run-plan: the aborted step fails and the plan goes on', () => {
    const out = runExample('run-plan');
    expect(out).toMatch(/deploy\s+FAILED aborted: change freeze until Monday/);
    expect(out).toMatch(/announce\s+ok\s+announce: done/);
  });

  it('demo: prints 22 trace trees and a summary with the abort rate, one approved and one denied mail', () => {
    const out = runExample('demo');
    expect(out.match(/^execute_tool /gm)).toHaveLength(22);
    expect(out).toMatch(/tool calls\s+22/);
    expect(out).toMatch(/aborted\s+3/);
    expect(out).toMatch(/skipped\s+2/);
    expect(out).toMatch(/recovered\s+4/);
    expect(out).toMatch(/denied\s+1/);
    expect(out).toMatch(/abort rate\s+13\.6%/);
    expect(out).toMatch(/\? approval: approved by on-call \(/);
    expect(out).toMatch(/\? approval: denied by on-call "mail outside the team needs a ticket" \(/);
    expect(out).toMatch(/hook errors\s+2/);
    expect(out).toMatch(/audit-log: threw TypeError/);
  });

  it('demo: with an endpoint, exports there and says where to look', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const { stdout } = await runExampleAsync('demo', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
      expect(stdout).toContain(`Traces, metrics and logs were sent to ${receiver.url}`);
      expect(stdout).not.toMatch(/^execute_tool /m); // no trees when exporting
      const roots = receiver.spans().filter((s) => s.name.startsWith('execute_tool '));
      expect(roots).toHaveLength(22);
      expect(roots.filter((s) => s.attributes['toolhooks.outcome'] === 'aborted')).toHaveLength(3);
      expect(receiver.metrics().some((m) => m.name === 'toolhooks.tool.calls')).toBe(true);
      expect(receiver.logs().length).toBeGreaterThan(0);
    } finally {
      await receiver.stop();
    }
  });

  it('demo: with an unreachable endpoint, finishes, says so once, and exits 0', async () => {
    const receiver = await OtlpReceiver.start();
    const url = receiver.url;
    await receiver.stop(); // nothing listens there now
    const { stdout, stderr } = await runExampleAsync('demo', { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    expect(stdout).toMatch(/tool calls\s+22/);
    expect(stderr.match(/could not be reached/g)).toHaveLength(1);
    expect(stdout).toContain(`The collector at ${url} could not be reached`);
  });

  it('existing-sdk: startTelemetry leaves the app its SDK, and toolhooks telemetry flows through it', () => {
    const out = runExample('existing-sdk');
    expect(out).toContain('startTelemetry status: existing');
    expect(out).toContain('search(cached) → from cache');
    expect(out).toMatch(/the app's span exporter got: .*execute_tool search.*execute_tool search/);
    expect(out).toContain("the app's metric reader got toolhooks.tool.calls: completed=1, skipped=1");
  });

  it('compose-stack: exports traces, metrics and logs to the OTLP endpoint it is given', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const { stdout } = await runExampleAsync('compose-stack', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
      expect(stdout).toContain(`sent 4 tool calls (2 aborted) to ${receiver.url}`);
      const roots = receiver.spans().filter((s) => s.name === 'execute_tool shell');
      expect(roots.map((s) => s.attributes['toolhooks.outcome']).sort()).toEqual(['aborted', 'aborted', 'completed', 'completed']);
      expect(roots.every((s) => s.resource['service.name'] === 'toolhooks-compose-example')).toBe(true);
      expect(receiver.metrics().some((m) => m.name === 'toolhooks.tool.calls')).toBe(true);
      expect(receiver.logs().some((l) => String(l.body) === 'tool call aborted')).toBe(true);
    } finally {
      await receiver.stop();
    }
  });
});

describe('examples import the package as an app does', () => {
  const root = resolve(import.meta.dirname, '../../..');
  const files = readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));

  it('by name (toolhooks, toolhooks/node, …), never by a path into the repository', () => {
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(root, 'examples', file), 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const specifier = match[1] ?? '';
        const local = specifier.startsWith('./') || (specifier.startsWith('../') && file.includes('/') && !specifier.startsWith('../../'));
        if (specifier.startsWith('.') && !local) outside.push(`${file}: ${specifier}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  it('resolve, in the repository, every entry point the package exports to its source (tsconfig paths)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { import?: { default?: string } }> };
    const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
    const fromExports = Object.entries(manifest.exports)
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => [
        subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        [(target.import?.default ?? '').replace('./dist/esm/', './src/').replace(/\.js$/, '.ts')],
      ]);
    // The package's own names only: a test lane may map a framework's types too (the Strands lane does).
    const own = Object.entries(compilerOptions.paths).filter(([name]) => name === manifest.name || name.startsWith(`${manifest.name}/`));
    expect(Object.fromEntries(own)).toEqual(Object.fromEntries(fromExports));
  });
});
