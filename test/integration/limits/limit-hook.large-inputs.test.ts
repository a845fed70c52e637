/**
 * limitHook over many tools: 1,030 tools each counted on their own (past the 1,024 tool keys the hook
 * remembers before it starts over). The unit tests of src/limits/limit-hook.ts are in test/unit/limits/limit-hook.test.ts;
 * this one is in the integration tier for its size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { limitHook, memoryLimitStore } from '../../../src/limits/index.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
afterEach(() => tracing.reset());

describe('limitHook over many tools', () => {
  it('counts each tool on its own by default, however many tools it sees', async () => {
    const store = memoryLimitStore();
    const runner = tracing.runner([limitHook({ name: 'per_tool', limit: 1, store })]);
    for (let i = 0; i < 1030; i += 1) await executeTool({ hooks: runner, toolName: `tool_${i}`, args: {}, execute: () => 'ran' });
    await expect(executeTool({ hooks: runner, toolName: 'tool_3', args: {}, execute: () => 'ran' })).rejects.toThrow('limit per_tool: 1 reached');
    expect(store.size).toBe(1030);
  });
});
