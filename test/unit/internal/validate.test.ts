/**
 * The one option-checking helper, as users meet it through every public options object: an unknown
 * option names the nearest known one, a wrong type quotes what it got, and a duration a timer cannot
 * hold (more than 2^31 - 1 ms, which Node would fire after 1 ms) is a RangeError naming the option.
 */
import { describe, expect, it, vi } from 'vitest';
import { HookAbortError, HookRunner } from '../../../src/index.js';
import { LoggingHook, MetricsHook, otelDestination } from '../../../src/hooks/index.js';
import { TreeSpanExporter, startTelemetry } from '../../../src/node/index.js';
import { replay } from '../../../src/replay/index.js';
import { claudeAgentHooks } from '../../../src/adapters/claude/index.js';
import { MAX_TIMER_MS, duration, readOptions, string } from '../../../src/internal/validate.js';
import { quoteValue } from '../../../src/internal/describe.js';

const THIRTY_DAYS = 30 * 24 * 3600 * 1000;

describe('readOptions', () => {
  const checks = { timeoutMs: duration(0), name: string };

  it('names the nearest known option for an unknown one', () => {
    expect(() => readOptions({ timeoutMS: 1 }, 'x(options)', 'x', checks)).toThrow(new TypeError('x: unknown option "timeoutMS"; did you mean "timeoutMs"?'));
    expect(() => readOptions({ zzz: 1 }, 'x(options)', 'x', checks)).toThrow('x: unknown option "zzz"; the options are timeoutMs, name');
  });

  it('quotes a value of the wrong type', () => {
    expect(() => readOptions({ timeoutMs: '5000' }, 'x(options)', 'x', checks)).toThrow(TypeError);
    expect(() => readOptions({ timeoutMs: '5000' }, 'x(options)', 'x', checks)).toThrow('got the string "5000"');
    expect(() => readOptions('opts', 'x(options)', 'x', checks)).toThrow(new TypeError('x(options) must be an object, got the string "opts"'));
  });

  it('rejects a duration a timer cannot hold, and keeps the largest one it can', () => {
    expect(() => readOptions({ timeoutMs: MAX_TIMER_MS + 1 }, 'x(options)', 'x', checks)).toThrow(RangeError);
    expect(readOptions({ timeoutMs: MAX_TIMER_MS }, 'x(options)', 'x', checks)).toEqual({ timeoutMs: MAX_TIMER_MS });
    expect(readOptions(undefined, 'x(options)', 'x', checks)).toEqual({});
  });

  it('reads each option once and returns what it checked, so a getter cannot pass with one value and be used with another', () => {
    const reads: string[] = [];
    let timeout = 100;
    const options = {
      get timeoutMs() {
        reads.push('timeoutMs');
        const value = timeout;
        timeout = -1; // a second read would fail the check
        return value;
      },
      name: 'n',
    };
    const snapshot = readOptions(options, 'x(options)', 'x', checks);
    expect(snapshot).toEqual({ timeoutMs: 100, name: 'n' });
    expect(reads).toEqual(['timeoutMs']);
    expect(snapshot).not.toBe(options);
  });

  it('the public options are read once: a HookRunner option that changes after its check is used as checked', async () => {
    let reads = 0;
    const options = {
      hooks: [{ name: 'broken', beforeTool: () => { throw new Error('down'); } }],
      // 'closed' when checked, 'open' on any later read: a throwing hook must then abort the call.
      get failureMode() {
        reads += 1;
        return reads === 1 ? 'closed' : 'open';
      },
    };
    const runner = new HookRunner(options as never);
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await expect(runner.runBefore('t', {}, undefined)).rejects.toBeInstanceOf(HookAbortError);
    warned.mockRestore();
    expect(reads).toBe(1);
  });

  it('quoteValue never throws and shows what was passed', () => {
    expect(quoteValue('5000')).toBe('the string "5000"');
    expect(quoteValue(5000)).toBe('5000');
    expect(quoteValue(null)).toBe('null');
    expect(quoteValue([])).toBe('an array');
    expect(quoteValue('x'.repeat(100))).toContain('…');
  });
});

describe('every public options object', () => {
  const runner = new HookRunner([{ name: 'h', beforeTool: () => undefined }]);

  it('HookRunner: timeoutMs "5000" is a TypeError quoting the string; 30 days is a RangeError', () => {
    expect(() => new HookRunner({ timeoutMs: '5000' as unknown as number })).toThrow(TypeError);
    expect(() => new HookRunner({ timeoutMs: '5000' as unknown as number })).toThrow(/HookRunner: timeoutMs must be .* got the string "5000"/);
    expect(() => new HookRunner({ timeoutMs: THIRTY_DAYS })).toThrow(RangeError);
    expect(() => new HookRunner({ timeoutMs: THIRTY_DAYS })).toThrow(/HookRunner: timeoutMs/);
    expect(() => new HookRunner([{ name: 'slow', timeoutMs: THIRTY_DAYS, beforeTool: () => undefined }])).toThrow(/timeoutMs .*2147483647/);
    expect(() => new HookRunner({ agentName: 7 as unknown as string })).toThrow('HookRunner: agentName must be a string, got 7');
  });

  it('RunOptions: a string knownTools and a non-AbortSignal signal are TypeErrors', async () => {
    await expect(runner.runBefore('t', {}, undefined, { knownTools: 'search' as unknown as string[] })).rejects.toThrow(
      /HookRunner.runBefore: knownTools must be an array or Set of tool names, got the string "search"/,
    );
    await expect(runner.runBefore('t', {}, undefined, { signal: {} as AbortSignal })).rejects.toThrow(/signal must be an AbortSignal, got object/);
    await expect(runner.runBefore('t', {}, undefined, { knownTools: new Set(['a']), signal: new AbortController().signal })).resolves.toEqual({ kind: 'continue' });
  });

  it('startTelemetry: misspelt names and durations a timer cannot hold', () => {
    expect(() => startTelemetry({ servicename: 'x' } as never)).toThrow(/unknown option "servicename"; did you mean "serviceName"/);
    expect(() => startTelemetry({ endpiont: 'http://127.0.0.1:4318' } as never)).toThrow(/did you mean "endpoint"/);
    expect(() => startTelemetry({ shutdownTimeoutMillis: THIRTY_DAYS })).toThrow(RangeError);
    expect(() => startTelemetry({ shutdownTimeoutMillis: THIRTY_DAYS })).toThrow(/shutdownTimeoutMillis/);
    expect(() => startTelemetry({ metricExportIntervalMillis: THIRTY_DAYS })).toThrow(/metricExportIntervalMillis/);
    expect(() => startTelemetry({ prometheus: { port: 9464, hots: 'x' } } as never)).toThrow(/did you mean "host"/);
  });

  it('MetricsHook, LoggingHook, otelDestination, TreeSpanExporter', () => {
    expect(() => new MetricsHook({ nmae: 'm' } as never)).toThrow(new TypeError('MetricsHook: unknown option "nmae"; did you mean "name"?'));
    expect(() => new LoggingHook({ levl: 'warn' } as never)).toThrow(new TypeError('LoggingHook: unknown option "levl"; did you mean "level"?'));
    expect(() => new MetricsHook({ name: 3 } as never)).toThrow('MetricsHook: name must be a string, got 3');
    expect(() => otelDestination({ loggername: 'x' } as never)).toThrow(/did you mean "loggerName"/);
    expect(() => new TreeSpanExporter({ colour: true } as never)).toThrow(/did you mean "color"/);
    expect(() => new TreeSpanExporter({ color: 'yes' } as never)).toThrow('TreeSpanExporter: color must be true or false, got the string "yes"');
  });

  it('replay and the Claude adapter', async () => {
    await expect(replay({ hooks: [], source: '-', fetchTimeout: 5 } as never)).rejects.toThrow(/did you mean "fetchTimeoutMs"/);
    await expect(replay({ hooks: [], source: '-', fetchTimeoutMs: THIRTY_DAYS })).rejects.toThrow(RangeError);
    expect(() => claudeAgentHooks(runner, { maxToolDurationMs: THIRTY_DAYS })).toThrow(RangeError);
    expect(() => claudeAgentHooks(runner, { maxToolDurationMs: THIRTY_DAYS })).toThrow(/maxToolDurationMs/);
  });
});
