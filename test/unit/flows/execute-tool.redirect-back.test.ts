/**
 * A Redirect may name the originally requested tool after an earlier Redirect switched away from it: the
 * requested tool is always a known target.
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookRunner, executeTool, redirect } from '../../../src/index.js';

describe('a Redirect back to the requested tool', () => {
  it('after a before_tool Redirect to another tool, an after_tool Redirect back re-runs the requested tool', async () => {
    const ran: string[] = [];
    const errors: string[] = [];
    const hook: ToolHook = {
      beforeTool: () => redirect({ newTool: 'sandbox' }),
      afterTool: (tool) => (tool === 'sandbox' ? redirect({ newTool: 'shell' }) : undefined),
      onEvent: (event: ToolHookEvent) => void (event.type === 'phase' && errors.push(...event.errors.map((failure) => failure.kind))),
    };
    const result = await executeTool({
      hooks: new HookRunner([hook]),
      toolName: 'shell',
      args: {},
      execute: () => (ran.push('shell'), 'shell'),
      tools: { sandbox: () => (ran.push('sandbox'), 'sandbox') },
    });
    expect(errors).toEqual([]);
    expect(ran).toEqual(['sandbox', 'shell']);
    expect(result).toBe('shell');
  });

  it('an on_error Redirect back to the requested tool retries it', async () => {
    const ran: string[] = [];
    const hook: ToolHook = {
      beforeTool: () => redirect({ newTool: 'mirror' }),
      onError: (tool) => (tool === 'mirror' ? redirect({ newTool: 'fetch' }) : undefined),
    };
    const result = await executeTool({
      hooks: new HookRunner([hook]),
      toolName: 'fetch',
      args: {},
      execute: () => (ran.push('fetch'), 'fetched'),
      tools: { mirror: () => (ran.push('mirror'), Promise.reject(new Error('mirror down'))) },
    });
    expect(ran).toEqual(['mirror', 'fetch']);
    expect(result).toBe('fetched');
  });
});
