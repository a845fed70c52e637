/**
 * Every decision kind is handled at every site that tells kinds apart: the fold, the telemetry, the
 * observer records, the decision checks, every adapter's mapping and replay. Each site's switch ends in
 * `exhaustive()` (or is a `Record<DecisionKind, …>` table), so the type checker fails where a new kind
 * is missing; this test fails too, site by site, checked against the full kind list. The list of sites
 * is "A new decision kind" in docs/architecture.md.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Span } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { DecisionKind, HookDecision } from '../../src/decisions.js';
import { CONTINUE, DECISION_KINDS, abort, ask, isDecisionKind, normaliseDecision, redirect, replaceResult, skip } from '../../src/decisions.js';
import type { Phase } from '../../src/hook.js';
import { exhaustive } from '../../src/internal/exhaustive.js';
import { BEFORE_TOOL_MOVES } from '../../src/replay/flips.js';
import type { FoldState, Folded, Step } from '../../src/runner/fold.js';
import { askOutcome, clearFold, foldStep } from '../../src/runner/fold.js';
import { hookRecord, shadowedRecord } from '../../src/runner/records.js';
import { checkDecision } from '../../src/runner/verdict.js';
import { resolveCapture } from '../../src/telemetry/capture/options.js';
import { guardrailEventAttributes } from '../../src/telemetry/guardrail.js';
import { recordEvent } from '../../src/telemetry/phase-span.js';
import { ATTR_DECISION, ATTR_GUARDRAIL_VERDICT_TYPE } from '../../src/telemetry/semconv.js';

/** One decision of each kind; a kind missing here fails the type check. */
const SAMPLES: Record<DecisionKind, HookDecision> = {
  continue: CONTINUE,
  skip: skip('cached', 'stub'),
  redirect: redirect({ newArgs: { limit: 10 }, newTool: 'other', reason: 'capped' }),
  abort: abort('no'),
  ask: ask('may I?'),
  replace: replaceResult('redacted', 'pii'),
};

/** Where each kind may be returned (Ask in before_tool, Replace in after_tool). */
const PHASES: Record<DecisionKind, Phase> = {
  continue: 'before_tool',
  skip: 'before_tool',
  redirect: 'before_tool',
  abort: 'before_tool',
  ask: 'before_tool',
  replace: 'after_tool',
};

/** The fold: what each kind does as the first decision of a phase. */
const FIRST_STEPS: Record<DecisionKind, Step> = {
  continue: 'none',
  skip: 'won',
  redirect: 'won',
  abort: 'aborted',
  ask: 'asked',
  replace: 'won',
};

/** The fold's end: what becomes of an Ask when each kind wins beside it. */
const ASK_OUTCOMES: Record<DecisionKind, ReturnType<typeof askOutcome>> = {
  continue: 'pending',
  redirect: 'pending',
  skip: 'shadowed',
  abort: 'shadowed',
  ask: 'none',
  replace: 'none',
};

const kinds = [...DECISION_KINDS].sort();
const capture = resolveCapture({ args: true });
const hook: Folded = { name: 'h', mode: 'enforce' };

/** Calls a site with one decision of each kind. */
function eachKind(site: (kind: DecisionKind, decision: HookDecision) => void): void {
  for (const kind of DECISION_KINDS) site(kind, SAMPLES[kind]);
}

describe('every decision kind', () => {
  it('is in the kind list, and every table here lists exactly those kinds', () => {
    expect(kinds).toEqual(['abort', 'ask', 'continue', 'redirect', 'replace', 'skip']);
    for (const table of [SAMPLES, PHASES, FIRST_STEPS, ASK_OUTCOMES, BEFORE_TOOL_MOVES]) expect(Object.keys(table).sort()).toEqual(kinds);
    for (const kind of kinds) expect(SAMPLES[kind as DecisionKind].kind).toBe(kind);
  });

  it('is folded (runner/fold.ts)', () => {
    eachKind((kind, decision) => {
      const state: FoldState = clearFold({} as FoldState);
      expect(foldStep(state, hook, decision, PHASES[kind]), kind).toBe(FIRST_STEPS[kind]);
      // An audit hook's decision of any kind takes no part.
      expect(foldStep(clearFold({} as FoldState), { name: 'a', mode: 'audit' }, decision, PHASES[kind]), kind).toBe('none');
      const asked: FoldState = { ...clearFold({} as FoldState), asker: hook, ask: ask('may I?'), winning: decision };
      expect(askOutcome(asked), kind).toBe(ASK_OUTCOMES[kind]);
    });
  });

  it('is checked as a hook return (runner/verdict.ts) and normalised from a literal (decisions.ts)', () => {
    eachKind((kind, decision) => {
      expect(checkDecision(decision, 'h', { phase: PHASES[kind], toolName: 't' }), kind).toBe(decision);
      expect(normaliseDecision({ ...decision } as HookDecision).kind).toBe(kind);
      expect(isDecisionKind(kind)).toBe(true);
    });
    expect(isDecisionKind('constructor')).toBe(false);
  });

  it('is recorded for observers (runner/records.ts)', () => {
    eachKind((kind, decision) => {
      expect(hookRecord({ name: 'h', mode: 'enforce' }, decision, 1, capture).decision, kind).toBe(kind);
      expect(shadowedRecord('h', decision, capture).decision, kind).toBe(kind);
    });
  });

  it('is written as a span event (telemetry/phase-span.ts) and in the guardrail conventions (telemetry/guardrail.ts)', () => {
    eachKind((kind, decision) => {
      const events: Record<string, unknown>[] = [];
      const span = { addEvent: (_name: string, attributes: Record<string, unknown>) => events.push(attributes) } as unknown as Span;
      recordEvent(span, capture, { type: 'decision', hook: { name: 'h', index: 0, mode: 'enforce', failureMode: 'open' }, decision, durationMs: 1 });
      // A kind the event's attributes do not handle is reported by the span guard and leaves no event.
      expect(events.map((attributes) => attributes[ATTR_DECISION]), kind).toEqual([kind]);
      const verdict = guardrailEventAttributes({ type: 'decision', hook: { mode: 'enforce' }, decision })[ATTR_GUARDRAIL_VERDICT_TYPE];
      expect(verdict, kind).toBeTypeOf('string');
    });
  });

  it('is read back by replay (replay/recorded-calls.ts, replay/flips.ts)', () => {
    for (const kind of DECISION_KINDS) expect(['stops', 'runs', 'neither']).toContain(BEFORE_TOOL_MOVES[kind]);
  });

  it('reaches no adapter switch that is not exhaustive (adapters see a call outcome, not a kind)', () => {
    const root = join(import.meta.dirname, '../../src/adapters');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const kindCase = new RegExp(`case '(${kinds.filter((kind) => kind !== 'continue' && kind !== 'ask').join('|')})'`);
    const unchecked = files.filter((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return kindCase.test(text) && !text.includes('exhaustive(');
    });
    expect(unchecked).toEqual([]);
  });
});

describe('exhaustive()', () => {
  /** A switch that misses every kind but Continue: the type checker rejects its default. */
  function partial(kind: DecisionKind): string {
    switch (kind) {
      case 'continue':
        return 'allow';
      default:
        // @ts-expect-error -- the kinds left ('skip' | 'redirect' | …) are not `never`: an unhandled kind fails the type check
        return exhaustive(kind, 'decision kind');
    }
  }

  it('is rejected by the type checker where a kind is unhandled, and throws, naming it, if reached', () => {
    expect(partial('continue')).toBe('allow');
    expect(() => partial('skip')).toThrow(/unhandled decision kind "skip"/);
    expect(() => exhaustive({ kind: 'later' } as never, 'decision kind')).toThrow(/unhandled decision kind "later"/);
  });
});
