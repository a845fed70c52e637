/**
 * The input document's JSON: small plain data takes the native path, everything else the bounded writer,
 * and both write the same text for the same value — the fast path is never a different document.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS, parseInput, policyInput, policyInputJson } from '../../../src/policy/input.js';
import { serializeBounded } from '../../../src/telemetry/capture/bounded-json.js';
import type { HookContext } from '../../../src/index.js';

const ctx = { callId: 'c1', agentName: 'bot', phase: 'before_tool', attempt: 1, signal: new AbortController().signal } as HookContext;

function bounded(args: unknown, result?: { value: unknown }): string {
  const doc: Record<string, unknown> = { phase: 'before_tool', tool: 't', callId: 'c1', agent: 'bot', context: {}, args };
  if (result !== undefined) doc.result = result.value;
  return serializeBounded(doc, MAX_INPUT_CHARS, 16_384, () => false);
}

function json(args: Record<string, unknown>, result?: { value: unknown }): string {
  return policyInputJson({ phase: 'before_tool', tool: 't', args, ctx, hasResult: result !== undefined, result: result?.value, context: undefined });
}

describe('policyInputJson', () => {
  it('writes what the bounded writer writes, for plain data and for everything the fast path refuses', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const sparse: unknown[] = [];
    sparse.length = 5;
    const cases: Record<string, unknown>[] = [
      { q: 'x', n: 1.5, ok: true, none: null, skip: undefined, list: [1, 'two', null, undefined, { deep: [[]] }], nested: { a: { b: { c: 'd' } } } },
      Object.assign(Object.create(null) as Record<string, unknown>, { bare: 1 }),
      {
        get hidden() {
          return 'from a getter';
        },
      },
      { proxy: new Proxy({ a: 1 }, {}) },
      { custom: { toJSON: () => 'custom' } },
      { nan: Number.NaN, inf: Number.POSITIVE_INFINITY },
      { sparse },
      { cyclic },
      { date: new Date(0), map: new Map([[1, 2]]), big: 10n },
      { long: 'x'.repeat(20_000) },
      { deep: JSON.parse('['.repeat(20) + ']'.repeat(20)) as unknown },
      { wide: Array.from({ length: 600 }, (_, i) => i) },
    ];
    for (const args of cases) expect(json(args)).toBe(bounded(args));
    expect(json({ a: 1 }, { value: 'r' })).toBe(bounded({ a: 1 }, { value: 'r' }));
    expect(json({ a: 1 }, { value: undefined })).toBe(bounded({ a: 1 }, { value: undefined }));
  });

  it('never writes a hole-filled array past the bounds', () => {
    const huge: unknown[] = [];
    huge.length = 10_000_000;
    expect(json({ huge }).length).toBeLessThanOrEqual(MAX_INPUT_CHARS);
  });
});

describe('policyInput', () => {
  const parts = (args: Record<string, unknown>) => ({ phase: 'before_tool', tool: 't', args, ctx, hasResult: false, context: undefined }) as const;

  it('is the document itself for small plain data (the hooks\' args by reference), the same document as the JSON', () => {
    const args = Object.freeze({ q: 'x', n: 1, list: Object.freeze([1, 'two']) });
    const input = policyInput(parts(args));
    expect(input.args).toBe(args);
    expect(JSON.stringify(input)).toBe(policyInputJson(parts(args)));
  });

  it('is the bounded JSON parsed for anything else', () => {
    const args = { long: 'x'.repeat(20_000), proxy: new Proxy({ a: 1 }, {}) };
    const input = policyInput(parts(args));
    expect(input.args).not.toBe(args);
    expect(input).toEqual(parseInput(policyInputJson(parts(args))));
    expect(JSON.stringify(input).length).toBeLessThan(20_000);
  });
});

describe('parseInput', () => {
  it('keeps args and context objects when the writer left something else', () => {
    expect(parseInput('{"phase":"before_tool","tool":"t","args":"[Object]"}')).toEqual({ phase: 'before_tool', tool: 't', args: {}, context: {} });
  });
});
