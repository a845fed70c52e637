/**
 * An in-memory trace pipeline for tests: a real SDK tracer provider whose finished spans are read
 * back, with the AsyncLocalStorage context manager so parent/child links across awaits are real.
 */
import type { Span } from '@opentelemetry/api';
import { ROOT_CONTEXT, context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { beforeEach, expect } from 'vitest';
import { newTracerProvider, simpleSpanProcessor } from './sdk.js';
import type { TestTracerProvider } from './sdk.js';
import type { HookRunnerOptions, ToolHook } from '../../src/index.js';
import { HookRunner } from '../../src/index.js';
import { ATTR_OUTCOME } from '../../src/telemetry/semconv.js';

const PROBE = createContextKey('toolhooks test context probe');

/**
 * Installs the AsyncLocalStorage context manager unless a working one is registered (test files share a
 * process, and a test may have unregistered the globals).
 */
export function installContextManager(): void {
  const working = context.with(ROOT_CONTEXT.setValue(PROBE, true), () => context.active().getValue(PROBE) === true);
  if (!working) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

export interface TestTracing {
  readonly provider: TestTracerProvider;
  readonly exporter: InMemorySpanExporter;
  readonly tracer: ReturnType<TestTracerProvider['getTracer']>;
  spans(): ReadableSpan[];
  spansNamed(name: string): ReadableSpan[];
  /** The one finished span with this name; fails the test when there is not exactly one. */
  onlySpan(name: string): ReadableSpan;
  /**
   * The names of the finished children of `span`, in start order. Start times may be whole milliseconds:
   * spans that start in the same one keep the order they finished in (the sort is stable).
   */
  childNames(span: ReadableSpan): string[];
  reset(): void;
  /** The `toolhooks.outcome` of each finished `execute_tool {toolName}` span, in the order they ended. */
  outcomesOf(toolName: string): unknown[];
  /** A HookRunner over `hooks` that records into this pipeline (more runner options may be given). */
  runner<S = unknown>(hooks: ToolHook<S>[], options?: Omit<HookRunnerOptions<S>, 'hooks' | 'tracer'>): HookRunner<S>;
}

/** A tracer provider with an in-memory exporter; spans are exported as soon as they end. */
export function createTestTracing(): TestTracing {
  installContextManager();
  const exporter = new InMemorySpanExporter();
  const provider = newTracerProvider({ spanProcessors: [simpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('toolhooks');
  return {
    provider,
    exporter,
    tracer,
    spans: () => exporter.getFinishedSpans(),
    spansNamed: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    onlySpan: (name) => {
      const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
      expect(spans, `spans named ${name}`).toHaveLength(1);
      return spans[0] as ReadableSpan;
    },
    childNames: (parent) =>
      exporter
        .getFinishedSpans()
        .filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId)
        .sort((a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + (a.startTime[1] - b.startTime[1]))
        .map((span) => span.name),
    reset: () => exporter.reset(),
    outcomesOf: (toolName) => exporter.getFinishedSpans().filter((span) => span.name === `execute_tool ${toolName}`).map((span) => span.attributes[ATTR_OUTCOME]),
    runner: <S>(hooks: ToolHook<S>[], options: Omit<HookRunnerOptions<S>, 'hooks' | 'tracer'> = {}) => new HookRunner<S>({ ...options, hooks, tracer }),
  };
}

/**
 * {@link createTestTracing} for a whole test file: the pipeline is emptied before each of the calling
 * file's tests, so every test reads only the spans it made.
 *
 * @example
 * ```ts
 * const tracing = useTestTracing();
 * it('records one phase span', async () => {
 *   await tracing.runner([hook]).runBefore('shell', {}, undefined);
 *   expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1);
 * });
 * ```
 */
export function useTestTracing(): TestTracing {
  const tracing = createTestTracing();
  beforeEach(() => tracing.reset());
  return tracing;
}

/** The events of a span with the given name, as `{ name, attributes }`. */
export function eventsOf(span: ReadableSpan, name?: string): { name: string; attributes: Record<string, unknown> }[] {
  return span.events
    .filter((event) => name === undefined || event.name === name)
    .map((event) => ({ name: event.name, attributes: { ...(event.attributes ?? {}) } }));
}

/**
 * `span` with an `isRecording` that throws (a broken SDK or a hostile wrapper); every other member is the
 * span's own.
 *
 * @example
 * ```ts
 * const broken = brokenIsRecording(tracing.tracer.startSpan('agent step'));
 * context.with(trace.setSpan(context.active(), broken), () => frameworkToolSpan('search', 'c1')); // undefined, reported
 * ```
 */
export function brokenIsRecording(span: Span): Span {
  return new Proxy(span, {
    get(target, prop) {
      if (prop === 'isRecording') {
        return () => {
          throw new Error('span.isRecording broken');
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
