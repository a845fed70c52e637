/**
 * An Ask with no approver anywhere is denied (a gate never fails open) and said once per process, with a
 * code, naming the `approver` option; a runner with an approver never says it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Toolhooks from '../../../src/index.js';

/** A fresh copy of the package: "once per process" starts over (other test files may have said it). */
async function freshPackage(): Promise<typeof Toolhooks> {
  vi.resetModules();
  return import('../../../src/index.js');
}

let emit: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => emit.mockRestore());

const gate = (toolhooks: typeof Toolhooks): Toolhooks.ToolHook => ({ name: 'mail-gate', beforeTool: () => toolhooks.ask('outgoing mail') });

describe('an Ask with nobody to answer it', () => {
  it('is not said when the runner has an approver', async () => {
    const toolhooks = await freshPackage();
    const { HookRunner, executeTool } = toolhooks;
    const hooks = new HookRunner({ hooks: [gate(toolhooks)], approver: () => ({ approved: false }) });
    expect(await executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'sent' })).toBe('Tool call denied: denied');
    expect(emit).not.toHaveBeenCalled();
  });

  it('is denied as no_approver and said once, naming the approver option', async () => {
    const toolhooks = await freshPackage();
    const { HookRunner, executeTool } = toolhooks;
    const hooks = new HookRunner([gate(toolhooks)]);
    for (let call = 0; call < 3; call += 1) {
      expect(await executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'sent' })).toBe('Tool call denied: no_approver');
    }
    expect(await executeTool({ hooks: new HookRunner([gate(toolhooks)]), toolName: 'delete_file', args: {}, execute: () => 'deleted' })).toBe('Tool call denied: no_approver');
    expect(emit).toHaveBeenCalledTimes(1);
    const [message, options] = emit.mock.calls[0] as [string, { code: string }];
    expect(message).toContain('hook "mail-gate" asked for approval of send_email, but nobody can answer');
    expect(message).toContain('new HookRunner({ hooks, approver })');
    expect(options.code).toBe('TOOLHOOKS_NO_APPROVER');
  });
});
