import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HookDecision, ToolHook } from '../../../src/index.js';
import { CONTINUE, HookAbortError, HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';

type Behaviour = 'none' | 'undefined' | 'continue' | 'skip' | 'redirect' | 'abort' | 'ask' | 'replace' | 'throw' | 'junk';
interface HookSpec {
  behaviour: Behaviour;
  failureMode: 'open' | 'closed';
  async: boolean;
  hasMethod: boolean;
  audit: boolean;
}

const hookSpec = fc.record<HookSpec>({
  behaviour: fc.constantFrom<Behaviour>('none', 'undefined', 'continue', 'skip', 'redirect', 'abort', 'ask', 'replace', 'throw', 'junk'),
  failureMode: fc.constantFrom('open', 'closed'),
  async: fc.boolean(),
  hasMethod: fc.boolean(),
  audit: fc.boolean(),
});

function decisionOf(behaviour: Behaviour, index: number): HookDecision | undefined {
  switch (behaviour) {
    case 'continue':
      return CONTINUE;
    case 'skip':
      return skip(`skip ${index}`, index);
    case 'redirect':
      return redirect({ newArgs: { index } });
    case 'abort':
      return abort(`abort ${index}`);
    case 'ask':
      return ask(`ask ${index}`);
    case 'replace':
      return replaceResult(index, `replace ${index}`);
    default:
      return undefined;
  }
}

/**
 * The reference model of the aggregation rules (docs/protocol.md): what the runner must return for a
 * chain, and which hooks run. Audit hooks run in their place and take no part in the decision; after an
 * Abort, only the audit hooks still run (they see all traffic), then the Abort is raised. An Ask
 * (before_tool only) asks for approval of what the others decide, which the runner's approver below
 * always gives; a Replace belongs to after_tool; each elsewhere is an invalid decision. In after_tool
 * a Skip takes no part.
 */
function model(specs: HookSpec[], phase: 'before' | 'after'): { result: HookDecision | { abortedBy: number }; invoked: number[] } {
  const invoked: number[] = [];
  let winner: { index: number; decision: HookDecision } | undefined;
  let abortedBy: number | undefined;
  for (const [index, spec] of specs.entries()) {
    if (!spec.hasMethod) continue;
    if (abortedBy !== undefined && !spec.audit) continue;
    invoked.push(index);
    if (spec.audit) continue;
    let decision: HookDecision;
    const misplaced = (phase === 'before' && spec.behaviour === 'replace') || (phase === 'after' && spec.behaviour === 'ask');
    if (spec.behaviour === 'throw' || spec.behaviour === 'junk' || misplaced) {
      decision = spec.failureMode === 'closed' ? abort('failed') : CONTINUE;
    } else {
      decision = decisionOf(spec.behaviour, index) ?? CONTINUE;
    }
    if (decision.kind === 'abort') abortedBy = index;
    else if (decision.kind === 'ask' || (phase === 'after' && decision.kind === 'skip')) continue;
    else if (decision.kind !== 'continue' && winner === undefined) winner = { index, decision };
  }
  if (abortedBy !== undefined) return { result: { abortedBy }, invoked };
  if (winner === undefined) return { result: CONTINUE, invoked };
  return { result: winner.decision, invoked };
}

function buildHooks(specs: HookSpec[], invoked: number[]): ToolHook[] {
  return specs.map((spec, index) => {
    const run = (): unknown => {
      invoked.push(index);
      const produce = (): unknown => {
        if (spec.behaviour === 'throw') throw new Error(`hook ${index} broke`);
        if (spec.behaviour === 'junk') return { kind: 'maybe' };
        return decisionOf(spec.behaviour, index);
      };
      return spec.async ? Promise.resolve().then(produce) : produce();
    };
    const hook: Record<string, unknown> = { name: `h${index}`, failureMode: spec.failureMode };
    if (spec.audit) hook.mode = 'audit';
    if (spec.hasMethod) {
      hook.beforeTool = run;
      hook.afterTool = run;
    } else {
      // A hook of another phase only: never invoked in these two.
      hook.onError = run;
    }
    return hook as ToolHook;
  });
}

describe('HookRunner aggregation matches the reference model', () => {
  for (const phase of ['before', 'after'] as const) {
    it(`over random hook chains (${phase}_tool)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hookSpec, { maxLength: 8 }), async (specs) => {
          const invoked: number[] = [];
          const runner = new HookRunner({ hooks: buildHooks(specs, invoked), approver: () => ({ approved: true }) });
          const expected = model(specs, phase);
          const actual = await (phase === 'before'
            ? runner.runBefore('tool', {}, undefined)
            : runner.runAfter('tool', {}, 'result', undefined, 1)
          ).catch((error: unknown) => error);
          expect(invoked).toEqual(expected.invoked);
          if ('abortedBy' in expected.result) {
            expect(actual).toBeInstanceOf(HookAbortError);
            expect((actual as HookAbortError).sourceHook).toBe(`h${expected.result.abortedBy}`);
          } else {
            expect(actual).toEqual(expected.result);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
