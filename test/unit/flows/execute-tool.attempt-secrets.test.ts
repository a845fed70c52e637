/**
 * Issue 29 item 1: a failed attempt's error text is scrubbed of the arguments that attempt ran with —
 * a before_tool Redirect's `newArgs`, an approver's `args` edits, an on_error Redirect's retry, an
 * after_tool Redirect's re-execution — on every signal: span statuses, `exception.*` events, the
 * observers' events and LoggingHook's records; with capture off (every value) and on (redacted keys).
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { ToolArgs, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookRunner, ask, executeTool, redirect } from '../../../src/index.js';
import { LoggingHook } from '../../../src/hooks/index.js';
import { errorMessage } from '../../../src/internal/describe.js';
import { SPAN_EXECUTE } from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

/** The credential a hook (or an approver) injects under a redacted key, as apps keep keys from the model. */
const SECRET = 'sk-live-4f9a1c0ffee';

/** The API the tool calls quotes the key it was given, as many do in a 401. */
function failingTool(args: ToolArgs): never {
  throw new Error(`401 Unauthorized: invalid key ${String(args.apiKey)} for ${String(args.q)}`);
}

/** A hook that quotes the tool's error in its own failure (an audit sink rejecting the record). */
const quotingHook: ToolHook = {
  name: 'audit',
  onError: (_tool, _args, error) => {
    throw new Error(`audit sink refused: ${errorMessage(error)}`);
  },
};

interface Source {
  readonly name: string;
  readonly hooks: ToolHook[];
  readonly approver?: () => { approved: true; args: ToolArgs };
  /** The executor: some sources need a first attempt that succeeds or fails without the secret. */
  readonly execute: (args: ToolArgs, ctx: { attempt: number }) => unknown;
}

const SOURCES: readonly Source[] = [
  {
    name: 'a before_tool Redirect',
    hooks: [{ name: 'inject', beforeTool: () => redirect({ newArgs: { apiKey: SECRET } }) }],
    execute: failingTool,
  },
  {
    name: "an approver's args edits",
    hooks: [{ name: 'gate', beforeTool: () => ask('paid API') }],
    approver: () => ({ approved: true, args: { apiKey: SECRET } }),
    execute: failingTool,
  },
  {
    name: 'an on_error Redirect that retries',
    hooks: [{ name: 'inject', onError: (_t, _a, _e, _s, ctx) => (ctx.attempt === 1 ? redirect({ newArgs: { apiKey: SECRET } }) : undefined) }],
    execute: (args) => failingTool(args),
  },
  {
    name: 'an after_tool Redirect that re-executes',
    hooks: [{ name: 'inject', afterTool: () => redirect({ newArgs: { apiKey: SECRET } }) }],
    execute: (args, ctx) => (ctx.attempt === 1 ? 'no key yet' : failingTool(args)),
  },
];

const CASES = SOURCES.flatMap((source) => [
  { ...source, capture: 'off' as const },
  { ...source, capture: 'on' as const },
]);

describe("a failed attempt's error text is scrubbed of the arguments it ran with", () => {
  it.each(CASES)('$name, capture $capture', async ({ hooks, approver, execute, capture }) => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const events: ToolHookEvent[] = [];
    const observer: ToolHook = { name: 'observer', onEvent: (event) => void events.push(event) };
    const runner = new HookRunner({
      tracer: tracing.tracer,
      hooks: [...hooks, quotingHook, observer, new LoggingHook({ logger })],
      ...(approver === undefined ? {} : { approver }),
      ...(capture === 'on' ? { capture: { args: true, results: true } } : {}),
    });
    await expect(executeTool({ hooks: runner, toolName: 'search', args: { q: 'cats' }, execute })).rejects.toThrow(SECRET);

    // The tool did fail with the secret in its message, on the attempt that ran with it.
    const executes = tracing.spansNamed(SPAN_EXECUTE);
    const failed = executes.at(-1)!;
    expect(failed.status.message).toMatch(/^401 Unauthorized: invalid key \[REDACTED\] for /);
    const telemetry = JSON.stringify(tracing.spans().map((span) => ({ attributes: span.attributes, events: span.events, status: span.status })));
    expect(telemetry).toContain('audit sink refused'); // the hook's failure was recorded…
    expect(telemetry).not.toContain(SECRET); // …and nothing anywhere holds the secret
    expect(lines.join('\n')).toContain('audit sink refused');
    expect(lines.join('\n')).not.toContain(SECRET);
    const recorded = JSON.stringify(events, (key, value: unknown) => (key === 'error' ? undefined : value));
    expect(recorded).toContain('audit sink refused');
    expect(recorded).not.toContain(SECRET);
  });
});
