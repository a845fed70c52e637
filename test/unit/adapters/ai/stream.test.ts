/**
 * Streaming tools in the AI SDK adapter: a tool that yields is run to its last value (each value passed
 * on as it comes), and a hooked call is streamed back value by value, ending with the call's result.
 */
import { describe, expect, it } from 'vitest';
import type { Sink } from '../../../../src/adapters/ai/stream.js';
import { isAsyncGeneratorFunction, isAsyncIterable, settle, streamCall } from '../../../../src/adapters/ai/stream.js';

async function* numbers(): AsyncGenerator<number> {
  yield 1;
  yield 2;
  yield 3;
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of stream) values.push(value);
  return values;
}

describe('settle', () => {
  it('returns a plain value as it is', async () => {
    expect(await settle('done', undefined)).toBe('done');
  });

  it("runs a stream to its end, passing each value on, and returns the last", async () => {
    const seen: unknown[] = [];
    expect(await settle(numbers(), (value) => seen.push(value))).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
  });
});

describe('streamCall', () => {
  it('yields each value the call passes on, then the result when it differs from the last value', async () => {
    const stream = streamCall(async (sink: Sink) => {
      sink('partial 1');
      await Promise.resolve();
      sink('partial 2');
      return 'final';
    });
    expect(await collect(stream)).toEqual(['partial 1', 'partial 2', 'final']);
  });

  it('does not repeat a result that is the last value yielded', async () => {
    const stream = streamCall(async (sink: Sink) => {
      sink('a');
      sink('b');
      return 'b';
    });
    expect(await collect(stream)).toEqual(['a', 'b']);
  });

  it("rejects with the call's error after the values that came before it", async () => {
    const seen: unknown[] = [];
    const stream = streamCall(async (sink: Sink) => {
      sink('partial');
      throw new Error('tool failed');
    });
    await expect((async () => {
      for await (const value of stream) seen.push(value);
    })()).rejects.toThrow('tool failed');
    expect(seen).toEqual(['partial']);
  });
});

describe('isAsyncGeneratorFunction', () => {
  it('tells an async generator function from other functions', () => {
    expect(isAsyncGeneratorFunction(numbers)).toBe(true);
    expect(isAsyncGeneratorFunction(async () => 1)).toBe(false);
    expect(isAsyncGeneratorFunction(function* gen() {})).toBe(false);
    expect(isAsyncGeneratorFunction('numbers')).toBe(false);
  });
});

describe('isAsyncIterable', () => {
  it('recognises async iterables only', () => {
    async function* stream(): AsyncGenerator<number> {
      yield 1;
    }
    expect([isAsyncIterable(stream()), isAsyncIterable([1]), isAsyncIterable(null), isAsyncIterable('text')]).toEqual([true, false, false, false]);
  });
});
