import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HookDecision, ToolHook } from '../../../src/index.js';
import { CONTINUE, HookAbortError, HookRunner, abort, ask, executeTool, redirect, replaceResult, skip } from '../../../src/index.js';

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

/** A hook that only observes: with one, every phase keeps its full running state (records for observers). */
const observer: ToolHook = { name: 'observer', onEvent: () => undefined };

/** What the phase's decision did to a call made through executeTool, as the model's decision would. */
function callEffect(decision: HookDecision | { abortedBy: number }, phase: 'before' | 'after'): unknown {
  if ('abortedBy' in decision) return { abortedBy: `h${decision.abortedBy}` };
  if (phase === 'before') {
    if (decision.kind === 'skip') return { result: decision.stubResult, ran: [] };
    if (decision.kind === 'redirect') return { result: 'result', ran: [decision.newArgs] };
    return { result: 'result', ran: [{}] };
  }
  // No re-execution allowed: an after_tool Redirect is recorded and ignored.
  return { result: decision.kind === 'replace' ? decision.result : 'result', ran: [{}] };
}

describe('HookRunner aggregation matches the reference model', () => {
  // Through runBefore / runAfter a phase keeps its running state from the start (with an observer,
  // records for it too). A call made with executeTool and no SDK has nothing to record it: its phases
  // fold without running state until a hook needs it (the quiet fold). All must give what the model says.
  for (const [phase, via] of [
    ['before', 'runner'],
    ['after', 'runner'],
    ['before', 'observed runner'],
    ['after', 'observed runner'],
    ['before', 'executeTool'],
    ['after', 'executeTool'],
  ] as const) {
    it(`over random hook chains (${phase}_tool, ${via})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hookSpec, { maxLength: 8 }), async (specs) => {
          const invoked: number[] = [];
          const expected = model(specs, phase);
          if (via === 'executeTool') {
            const hooks = buildHooks(specs, invoked).map((hook): ToolHook => {
              const { beforeTool, afterTool, ...rest } = hook;
              return phase === 'before' ? { ...rest, ...(beforeTool === undefined ? {} : { beforeTool }) } : { ...rest, ...(afterTool === undefined ? {} : { afterTool }) };
            });
            const runner = new HookRunner({ hooks, approver: () => ({ approved: true }) });
            const ran: unknown[] = [];
            const effect = await executeTool({
              hooks: runner,
              toolName: 'tool',
              args: {},
              maxReexecutions: 0,
              execute: (args) => {
                ran.push({ ...args });
                return 'result';
              },
            }).then(
              (result: unknown) => ({ result, ran }),
              (error: unknown) => (error instanceof HookAbortError ? { abortedBy: error.sourceHook } : error),
            );
            expect(invoked).toEqual(expected.invoked);
            expect(effect).toEqual(callEffect(expected.result, phase));
            return;
          }
          const hooks = buildHooks(specs, invoked);
          const runner = new HookRunner({ hooks: via === 'observed runner' ? [...hooks, observer] : hooks, approver: () => ({ approved: true }) });
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
