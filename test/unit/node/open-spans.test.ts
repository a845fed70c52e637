/** OpenSpans: the count shutdown waits on, and the wait itself. */
import { describe, expect, it } from 'vitest';
import { OpenSpans } from '../../../src/node/open-spans.js';

type SpanArg = Parameters<OpenSpans['onStart']>[0];
const span = {} as SpanArg;

describe('OpenSpans', () => {
  it('counts started spans until they end; settled() resolves as soon as none is open', async () => {
    const open = new OpenSpans();
    expect(await open.settled(1000)).toBe(0); // nothing open: at once
    open.onStart(span, {} as never);
    open.onStart(span, {} as never);
    expect(open.count).toBe(2);
    const started = performance.now();
    const settled = open.settled(5000);
    setTimeout(() => {
      open.onEnd(span as never);
      open.onEnd(span as never);
    }, 20);
    expect(await settled).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('gives up after its time with the count still open, and never goes below zero', async () => {
    const open = new OpenSpans();
    open.onStart(span, {} as never);
    expect(await open.settled(30)).toBe(1);
    expect(await open.settled(0)).toBe(1);
    open.onEnd(span as never);
    open.onEnd(span as never);
    expect(open.count).toBe(0);
    await expect(open.forceFlush()).resolves.toBeUndefined();
    await expect(open.shutdown()).resolves.toBeUndefined();
  });
});
