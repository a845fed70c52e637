/**
 * Error text in every signal: a tool or framework error that quotes the call's input (as LangChain's
 * ToolInvocationError and the AI SDK's invalid-input errors do) must not carry argument values into
 * span statuses, `exception.*` attributes, abort reasons, observer records or log lines — none with
 * capture off, none under a redacted key with capture on. And one description, one bound, for all.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, executeTool } from '../../../../src/index.js';
import type { ToolArgs, ToolHookEvent } from '../../../../src/index.js';
import { LoggingHook } from '../../../../src/hooks/index.js';
import { ATTR_EXCEPTION_MESSAGE, EVENT_HOOK_ERROR } from '../../../../src/telemetry/semconv.js';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';
import { eventsOf, useTestTracing } from '../../../support/tracing.js';

const tracing = useTestTracing();

const PASSWORD = 'hunter2-Pa$$"word';
const EMAIL = 'alice@example.com';
const ARGS: ToolArgs = { user: EMAIL, password: PASSWORD, attempts: 12345, nested: { pin: 'x', note: 'multi\nline "quoted" note' } };

/** An error the way LangChain's ToolInvocationError builds its message: the kwargs as JSON, then the cause's stack. */
class ToolInvocationError extends Error {
  constructor(args: ToolArgs) {
    const cause = new Error(`bad input: expected number, got ${JSON.stringify(args.password)}`);
    super(`Error invoking tool 'login' with kwargs ${JSON.stringify(args)} with error: ${cause.stack}\n Please fix the error and try again.`);
    this.name = 'ToolInvocationError';
  }
}

function memoryLog(): { logger: pino.Logger; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: pino({}, stream), text: () => text };
}

/** Every string telemetry recorded (attributes, statuses, event attributes), as recorded, one per line. */
function telemetryText(): string {
  const texts: string[] = [];
  for (const span of tracing.spans()) {
    texts.push(span.status.message ?? '', ...Object.values(span.attributes).map(String));
    for (const event of span.events) texts.push(...Object.values(event.attributes ?? {}).map(String));
  }
  return texts.join('\n');
}

/** Observer records as text: JSON of the events with each failure's recorded description. */
function eventText(events: readonly ToolHookEvent[]): string {
  const texts: string[] = [];
  for (const event of events) {
    if (event.type === 'tool') texts.push(event.reason ?? '');
    else if (event.type === 'phase') for (const failure of event.errors) texts.push(failure.exception?.type ?? '', failure.exception?.message ?? '', failure.exception?.stacktrace ?? '');
  }
  return texts.join('\n');
}

/** pino lines with their string fields decoded (JSON escapes undone), one per line. */
function logText(log: string): string {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) collect(member);
  };
  for (const line of log.split('\n').filter(Boolean)) collect(JSON.parse(line));
  return texts.join('\n');
}

async function failingCall(capture: { args: boolean }, onError: 'rethrow-closed' | 'none'): Promise<{ error: unknown; events: ToolHookEvent[]; log: string }> {
  const events: ToolHookEvent[] = [];
  const log = memoryLog();
  const hooks = new HookRunner({
    tracer: tracing.tracer,
    capture,
    hooks: [
      ...(onError === 'rethrow-closed'
        ? [
            {
              name: 'strict',
              failureMode: 'closed' as const,
              onError: (_tool: string, _args: ToolArgs, error: unknown) => {
                throw error;
              },
            },
          ]
        : []),
      { name: 'observer', onEvent: (event: ToolHookEvent) => void events.push(event) },
      new LoggingHook({ logger: log.logger }),
    ],
  });
  const error = await executeTool({
    hooks,
    toolName: 'login',
    args: ARGS,
    execute: (args) => {
      throw new ToolInvocationError(args);
    },
  }).catch((thrown: unknown) => thrown);
  return { error, events, log: log.text() };
}

/** Every form an argument value can take in a message: as it is, and JSON-quoted. */
function forms(value: string): string[] {
  return [value, JSON.stringify(value).slice(1, -1)];
}

describe('argument values in error text', () => {
  it('with capture off: no argument value in statuses, exception attributes, reasons, observer records or logs', async () => {
    const { error, events, log } = await failingCall({ args: false }, 'rethrow-closed');
    expect(error).toBeInstanceOf(HookAbortError);
    const everything = [telemetryText(), eventText(events), logText(log), (error as HookAbortError).reason];
    for (const text of everything) {
      for (const value of [...forms(PASSWORD), ...forms(EMAIL), '12345', ...forms('multi\nline "quoted" note')]) expect(text).not.toContain(value);
      expect(text).toContain('[REDACTED]'); // the message is still there, with the values taken out
    }
    // The framework's own words survive: what failed stays readable.
    expect(telemetryText()).toContain("Error invoking tool 'login' with kwargs");
  });

  it('with capture on: values under redacted keys are nowhere; other values may show', async () => {
    const { events, log } = await failingCall({ args: true }, 'rethrow-closed');
    for (const text of [telemetryText(), eventText(events), logText(log)]) {
        for (const value of forms(PASSWORD)) expect(text).not.toContain(value);
      expect(text).toContain('[REDACTED]');
    }
    expect(telemetryText()).toContain(EMAIL); // captured on purpose
  });

  it('a tool error without hooks that handle it: the execute_tool and toolhooks.execute statuses are scrubbed', async () => {
    await failingCall({ args: false }, 'none');
    expect(tracing.spans().length).toBeGreaterThan(0);
    for (const span of tracing.spans()) {
      if (span.status.message === undefined) continue;
      expect(span.status.message).not.toContain(PASSWORD);
      expect(span.status.message).not.toContain(EMAIL);
      expect(span.status.message).toContain('Error invoking tool');
    }
  });
});

describe('one description of an error for every signal (LoggingHook err)', () => {
  /** An axios-style error: the request config, with its Authorization header, hangs off the error. */
  class AxiosError extends Error {}
  function axiosError(message: string): Error {
    const error = new AxiosError(message) as Error & Record<string, unknown>;
    error.config = { url: 'https://policy.internal/check', headers: { Authorization: 'Bearer sk-live-0123456789abcdef' } };
    error.request = { _header: 'GET /check HTTP/1.1\r\nAuthorization: Bearer sk-live-0123456789abcdef\r\n' };
    error.response = { status: 401, headers: { 'set-cookie': 'sid=s3cr3t-cookie' } };
    return error;
  }

  async function hookFailure(thrown: Error, maxLength?: number): Promise<{ log: string; events: ToolHookEvent[] }> {
    const log = memoryLog();
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      ...(maxLength === undefined ? {} : { capture: { maxLength } }),
      hooks: [
        {
          name: 'policy',
          beforeTool: () => {
            throw thrown;
          },
        },
        { name: 'observer', onEvent: (event: ToolHookEvent) => void events.push(event) },
        new LoggingHook({ logger: log.logger }),
      ],
    });
    await executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'ok' });
    return { log: log.text(), events };
  }

  it('an axios-style error: its Authorization header and cookies reach no log line', async () => {
    const { log: raw } = await hookFailure(axiosError('Request failed with status code 401'));
    const log = logText(raw);
    expect(log).toContain('Request failed with status code 401');
    expect(log).toContain('AxiosError');
    expect(log).not.toContain('sk-live-0123456789abcdef');
    expect(log).not.toContain('s3cr3t-cookie');
    expect(log).not.toContain('policy.internal');
  });

  it('a 5 MB message: the log line, the observer record and the span event carry the same bounded text', async () => {
    const { log, events } = await hookFailure(axiosError('m'.repeat(5 * 1024 * 1024)), 1000);
    expect(log.length).toBeLessThan(8 * 1024);
    const line = log.split('\n').find((entry) => entry.includes('"err"'))!;
    const err = (JSON.parse(line) as { err: { message: string; type: string } }).err;
    const event = eventsOf(tracing.spans().find((span) => span.events.length > 0 && eventsOf(span, EVENT_HOOK_ERROR).length > 0)!, EVENT_HOOK_ERROR)[0]!;
    const phase = events.find((candidate) => candidate.type === 'phase' && candidate.errors.length > 0);
    const failure = phase?.type === 'phase' ? phase.errors[0] : undefined;
    expect(err.message).toBe(event.attributes[ATTR_EXCEPTION_MESSAGE]);
    expect(failure?.exception?.message).toBe(err.message);
    expect(err.message).toMatch(/^m{1000}…\[truncated \d+\]$/);
    expect(err.type).toBe('AxiosError');
  });
});

describe('the scrubber itself', () => {
  const off = resolveCapture({ maxLength: 100 });

  it('a value cut by maxLength is scrubbed too: no prefix of it survives the cut', () => {
    const secret = 'S3CRET-'.repeat(10);
    const text = off.scrubber([{ secret }]).text(`${'x'.repeat(90)}${secret} tail`);
    expect(text).toBe(`${'x'.repeat(90)}[REDACTED]…[truncated ${secret.length + 5 - 10}]`);
  });

  it('more values than it can check, or a value repeated past the bound: the message is withheld, never half-scrubbed', () => {
    const many: ToolArgs = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`k${i}`, `value-${i}`]));
    expect(off.scrubber([many]).text('value-7 failed')).toBe('[message withheld: it may contain tool arguments]');
    // Told by its length, without walking ten million holes.
    expect(off.scrubber([{ items: new Array<number>(10_000_000) }]).text('item 7 failed')).toBe('[message withheld: it may contain tool arguments]');
    expect(resolveCapture(undefined).scrubber([{ v: 'abc' }]).text('abc'.repeat(100))).toBe('[message withheld: it may contain tool arguments]');
  });

  it('never runs a getter of the arguments, and a Proxy whose traps throw withholds the message', () => {
    let ran = false;
    const args = {
      get secret(): string {
        ran = true;
        return 'x';
      },
    };
    expect(off.scrubber([args]).text('plain')).toBe('plain');
    expect(ran).toBe(false);
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(off.scrubber([hostile]).text('plain')).toBe('[message withheld: it may contain tool arguments]');
  });
});

describe('what the scrubber finds and describes', () => {
  const off = resolveCapture(undefined);
  const on = resolveCapture({ args: true });

  it('finds values in Maps, Sets and arrays, numbers and BigInts; skips binary data and short values', () => {
    const args = {
      byName: new Map<unknown, unknown>([['user', 'alice-map'], [7, 'seven-map']]),
      tags: new Set(['tag-in-set']),
      list: ['in-array'],
      big: 123456789n,
      count: 4242,
      blob: new Uint8Array([1, 2, 3]),
      ok: 'ok',
    };
    const text = off.scrubber([args]).text('alice-map seven-map tag-in-set in-array 123456789 4242 ok');
    expect(text).toBe('[REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED] ok');
  });

  it('with capture on, scrubs whatever sits under a redacted key, Map keys included, and leaves the rest', () => {
    const args = { user: 'alice', auth: { nested: ['deep-secret'] }, headers: new Map([['Authorization', 'Bearer abc123']]) };
    expect(on.scrubber([args]).text('alice: deep-secret, Bearer abc123')).toBe('alice: [REDACTED], [REDACTED]');
  });

  it('describes anything thrown: an Error without a stack, a string, an object whose toString throws, null', () => {
    const scrubber = off.scrubber([{ token: 'tok-123' }]);
    const bare = new RangeError('bad tok-123');
    Object.defineProperty(bare, 'stack', { value: undefined });
    expect(scrubber.describe(bare)).toEqual({ type: 'RangeError', message: 'bad [REDACTED]' });
    expect(scrubber.describe('failed with tok-123')).toEqual({ type: 'string', message: 'failed with [REDACTED]' });
    const hostile = { toString: () => { throw new Error('no'); } };
    expect(scrubber.describe(hostile)).toEqual({ type: 'object', message: '[object Object]' });
    expect(scrubber.describe(null)).toEqual({ type: 'null', message: 'null' });
    const stacked = scrubber.describe(new Error('tok-123 again'));
    expect(stacked.stacktrace).toMatch(/^Error: \[REDACTED\] again\n/);
  });

  it('arguments seen later (a Redirect) are scrubbed too; the same object twice is looked at once', () => {
    const scrubber = off.scrubber([{ a: 'first-value' }]);
    expect(scrubber.text('first-value second-value')).toBe('[REDACTED] second-value');
    const later = { b: 'second-value' };
    scrubber.add(later);
    scrubber.add(later);
    expect(scrubber.text('first-value second-value')).toBe('[REDACTED] [REDACTED]');
  });

  it('a cycle in the arguments is walked once; nesting past 12 levels withholds the message', () => {
    const cyclic: Record<string, unknown> = { v: 'loop-value' };
    cyclic.self = cyclic;
    expect(off.scrubber([cyclic]).text('loop-value')).toBe('[REDACTED]');
    let deep: Record<string, unknown> = { v: 'bottom' };
    for (let i = 0; i < 14; i += 1) deep = { next: deep };
    expect(off.scrubber([deep]).text('bottom')).toBe('[message withheld: it may contain tool arguments]');
    expect(off.scrubber([{ items: new Set(Array.from({ length: 1001 }, (_, i) => i)) }]).text('x')).toBe('[message withheld: it may contain tool arguments]');
  });
});
