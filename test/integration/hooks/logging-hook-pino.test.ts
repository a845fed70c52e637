/**
 * LoggingHook in an app that also runs @opentelemetry/instrumentation-pino: the fixture runs in its own
 * (CommonJS) process, so that the instrumentation patches pino the way it does in such an app.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTRUMENTATION_NAME } from '../../../src/telemetry/semconv.js';

describe('LoggingHook next to @opentelemetry/instrumentation-pino', () => {
  const fixture = fileURLToPath(new URL('./fixtures/instrumented-pino.cjs', import.meta.url));
  /** The instrumentation scopes of the OTel records that one LoggingHook event produced in the fixture. */
  function run(...args: string[]): string[] {
    const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', fixture, ...args], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    expect(child.stdout).toContain('"msg":"tool call completed"'); // stdout still gets the record
    return JSON.parse(child.stderr) as string[];
  }

  it('leaves sending to the instrumentation when it already bridges pino, so no record goes out twice', () => {
    expect(run('instrumented')).toEqual(['@opentelemetry/instrumentation-pino']);
    expect(run()).toEqual([INSTRUMENTATION_NAME]);
  });
});
