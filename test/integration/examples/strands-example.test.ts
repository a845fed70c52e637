/**
 * examples/strands.ts, run the way its header says (`npx tsx examples/strands.ts`), offline; in the
 * `strands` project (Strands from its install lane, test/strands/) and at the version matrix's oldest
 * Strands point (project `matrix`: TSX_TSCONFIG_PATH hands tsx that point's tsconfig.json, whose `paths`
 * name its install; runExample passes the environment on).
 */
import { describe, expect, it } from 'vitest';
import { runExample } from '../../support/run-example.js';

describe('examples/strands.ts', () => {
  it("runs a Strands agent offline through toolhooksHooks: each decision reaches the model, one execute_tool span per call (Strands' own)", () => {
    const output = runExample('strands');
    expect(output).toContain('call_1 success: [{"json":{"city":"Paris","forecast":"cloudy","cached":true}}]');
    expect(output).toContain('call_3 success: [{"text":"sandbox: ran \\"curl https://example.com\\""}]');
    expect(output).toContain('call_4 error: [{"text":"This tool call was aborted by no-destruction. Reason: destructive command refused"}]');
    expect(output).toContain('Final answer: Paris is cloudy');
    for (const [id, tool, outcome] of [['call_1', 'get_weather', 'skipped'], ['call_2', 'get_weather', 'completed'], ['call_3', 'run_shell', 'completed'], ['call_4', 'run_shell', 'aborted']]) {
      expect(output.match(new RegExp(`execute_tool ${tool} .*id=${id} .*outcome=${outcome}`, 'g'))).toHaveLength(1);
    }
    // Strands' own execute_tool span (its gen_ai.tool.message event), under its agent loop cycle, with toolhooks' phase spans below it.
    expect(output).toMatch(/├─ execute_agent_loop_cycle .*\n(│ .*\n)*│ {2}├─ execute_tool get_weather .*id=call_1 .*\n│ {2}│ {2}│ {3}· gen_ai\.tool\.message/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_3 .*\n(.*\n)*?.*toolhooks\.before_tool .*decision=redirect by sandbox-network/);
  }, 60_000);
});
