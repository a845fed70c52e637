/**
 * Streaming tools: an AI SDK tool whose `execute` is an async generator reports each value it yields
 * as a preliminary result and its last value as the result. The hooked tool keeps that contract:
 * values the tool yields pass straight through while the call runs inside executeTool, and what
 * executeTool finally returns (the last value, a stub, a re-executed result) is yielded last so the
 * SDK takes it as the result.
 * @internal
 */
/** Whether a value is an async iterable (a tool that streams its values). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** Where a running tool's yielded values go. */
export type Sink = (value: unknown) => void;

/**
 * Settles a tool's return value: an async iterable is consumed (each value to `sink`, when given)
 * and its last value is the result; anything else is returned for executeTool to await.
 */
export async function settle(value: unknown, sink: Sink | undefined): Promise<unknown> {
  if (!isAsyncIterable(value)) return value;
  let last: unknown;
  for await (const item of value) {
    last = item;
    sink?.(item);
  }
  return last;
}

/**
 * Runs `start` (a whole hooked call) and yields what its tools yield as they yield it, then the
 * call's result unless it is the value already yielded last.
 */
export async function* streamCall(start: (sink: Sink) => Promise<unknown>): AsyncGenerator<unknown, void, undefined> {
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let last: { value: unknown } | undefined;
  const done = start((value) => {
    queue.push(value);
    wake?.();
  });
  // Both handlers: a consumer that stops iterating early must not leave an unhandled rejection behind.
  done.then(
    () => {
      settled = true;
      wake?.();
    },
    () => {
      settled = true;
      wake?.();
    },
  );
  for (;;) {
    while (queue.length > 0) {
      const value = queue.shift();
      last = { value };
      yield value;
    }
    if (settled) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  const result = await done;
  if (last === undefined || !Object.is(last.value, result)) yield result;
}

/** True for `async function*` declarations: the SDK streams what they yield. */
export function isAsyncGeneratorFunction(fn: unknown): boolean {
  return typeof fn === 'function' && Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}
