// Observer events shaped the way the runner delivers them (src/hook.ts), for the built-in hooks' tests.
import type { ApprovalEvent, PhaseEvent, ToolEvent } from '../../src/hook.js';

export function toolEvent(overrides: Partial<ToolEvent> = {}): ToolEvent {
  return {
    type: 'tool',
    toolName: 'search',
    effectiveToolName: overrides.toolName ?? 'search',
    outcome: 'completed',
    durationMs: 120,
    retries: 0,
    reexecutions: 0,
    gated: false,
    ...overrides,
  };
}

export function phaseEvent(overrides: Partial<PhaseEvent> = {}): PhaseEvent {
  return {
    type: 'phase',
    phase: 'before_tool',
    toolName: 'search',
    decision: 'continue',
    hooks: [],
    shadowed: [],
    errors: [],
    durationMs: 3,
    ...overrides,
  };
}

/**
 * A before_tool phase in which `cache` skips, `policy` (later) redirects and is shadowed, `audit`
 * continues and `broken` throws.
 */
export function busyPhase(overrides: Partial<PhaseEvent> = {}): PhaseEvent {
  const failure = new TypeError('cannot read properties of undefined');
  return phaseEvent({
    decision: 'skip',
    winner: 'cache',
    hooks: [
      { hook: 'audit', decision: 'continue', durationMs: 0.2, mode: 'enforce' },
      { hook: 'cache', decision: 'skip', reason: 'cache hit', durationMs: 1.5, mode: 'enforce' },
      { hook: 'policy', decision: 'redirect', reason: 'use the sandbox', newTool: 'sandbox_search', durationMs: 4, mode: 'enforce', shadowedBy: 'cache' },
      { hook: 'broken', decision: 'error', durationMs: 0.7, mode: 'enforce' },
    ],
    shadowed: [{ hook: 'policy', decision: 'redirect', reason: 'use the sandbox' }],
    errors: [{ hook: 'broken', kind: 'threw', error: failure, mode: 'enforce' }],
    ...overrides,
  });
}

export function approvalEvent(overrides: Partial<ApprovalEvent> = {}): ApprovalEvent {
  return {
    type: 'approval',
    toolName: 'send_email',
    id: 'appr-1',
    hook: 'mail-gate',
    reason: 'outgoing mail',
    outcome: 'approved',
    edited: false,
    durationMs: 4200,
    ...overrides,
  };
}
