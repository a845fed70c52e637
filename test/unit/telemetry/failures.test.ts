/** A telemetry failure is reported through diag once, then counted, and never thrown. */
import { diag } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportTelemetryFailure, telemetryFailureCount } from '../../../src/telemetry/failures.js';
import { recordDiag } from '../../support/diag.js';

const recorded = recordDiag();
beforeEach(() => recorded.start());
afterEach(() => recorded.stop());

describe('reportTelemetryFailure', () => {
  it('counts every failure and, when it reports, says where and that the tool call is unaffected', () => {
    const before = telemetryFailureCount();
    reportTelemetryFailure('span.end', new Error('exporter down'));
    expect(telemetryFailureCount()).toBe(before + 1);
    // the count is process-wide: go on to the next report (the 1st, 10th, 100th…) and read it
    while (!Number.isInteger(Math.log10(telemetryFailureCount()))) reportTelemetryFailure('span.end', new Error('exporter down'));
    expect(recorded.messages.at(-1)).toMatch(
      new RegExp(`telemetry failed in span\\.end \\(${telemetryFailureCount()} failure\\(s\\) so far\\); the tool call is unaffected`),
    );
  });

  it('does not repeat the warning for every failure', () => {
    const before = telemetryFailureCount();
    for (let i = 0; i < 50; i += 1) reportTelemetryFailure('tracer.startSpan', new Error('x'));
    expect(telemetryFailureCount()).toBe(before + 50);
    // reported at the 1st, 10th, 100th…: at most two of these fifty reach diag
    expect(recorded.messages.length).toBeLessThanOrEqual(2);
  });

  it('never throws, even when the diag logger does', () => {
    const throwing: DiagLogger = {
      error: () => { throw new Error('logger down'); },
      warn: () => { throw new Error('logger down'); },
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    };
    diag.setLogger(throwing, { suppressOverrideMessage: true });
    expect(() => {
      for (let i = 0; i < 20; i += 1) reportTelemetryFailure('span.setAttribute', new Error('x'));
    }).not.toThrow();
  });
});
