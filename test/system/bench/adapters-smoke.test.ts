/**
 * Keeps the adapters benchmark (`npm run bench:adapters`) from rotting without timing anything: a run
 * of a few framework runs per scenario measures every scenario, and the one property it checks beside
 * the numbers holds — toolhooks on top of `@ai-sdk/otel` records one execute_tool span per call.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

describe('npm run bench:adapters', () => {
  it('measures each adapter against its framework alone, and ai 7 with @ai-sdk/otel records one execute_tool span per call', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/adapters.bench.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, BENCH_ROUNDS: '1', BENCH_RUNS: '2' },
    });
    for (const id of ['ai7.plain', 'ai7.toolhooks', 'ai7.otel', 'ai7.otel+toolhooks', 'openai-agents.toolhooks', 'mastra.toolhooks', 'adk.plain', 'adk.toolhooks', 'mcp2.toolhooks']) {
      expect(stdout).toMatch(new RegExp(`^${id.replace(/[.+]/g, '\\$&')} +\\d`, 'm'));
    }
    expect(stdout).toMatch(/^ai7\.otel\+toolhooks .*execute_tool 1, toolhooks\.\* 2$/m);
    expect(stdout).toMatch(/^ai7\.otel .*execute_tool 1, toolhooks\.\* 0$/m);
    expect(stdout).toContain('one execute_tool span per call with @ai-sdk/otel: met');
    for (const id of ['openai-agents', 'mastra', 'adk', 'strands', 'mcp2']) expect(stdout).toMatch(new RegExp(`^${id}\\.toolhooks .*execute_tool 1, toolhooks\\.\\* 2$`, 'm'));
  }, 150_000);
});
