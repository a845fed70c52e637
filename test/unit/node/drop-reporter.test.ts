import { diag, DiagLogLevel } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropReporter } from '../../../src/node/drop-reporter.js';
import { QueueGate } from '../../../src/node/queue-gate.js';

const OK: ExportResult = { code: ExportResultCode.SUCCESS };
const refused = (): ExportResult => ({ code: ExportResultCode.FAILED, error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), { code: 'ECONNREFUSED' }) });
const timedOut = (): ExportResult => ({ code: ExportResultCode.FAILED, error: new Error('Request timed out') });

let lines: { level: string; message: string }[] = [];

beforeEach(() => {
  lines = [];
  const line = (level: string) => (message: string) => void lines.push({ level, message });
  diag.setLogger(
    { error: line('error'), warn: line('warn'), info: line('info'), debug: () => undefined, verbose: () => undefined },
    { logLevel: DiagLogLevel.INFO, suppressOverrideMessage: true },
  );
});

afterEach(() => diag.disable());

/** One export from start to result. */
function exportOnce(reporter: DropReporter, count: number, result: ExportResult): ExportResult {
  return reporter.settle(result, count, reporter.exportStarted());
}

describe('DropReporter', () => {
  it('warns once at the first failure with reason and count, counts silently, and reports the total on recovery', () => {
    const reporter = new DropReporter('span', 'spans');
    expect(exportOnce(reporter, 3, refused())).toEqual(OK); // the processor is not asked to retry or complain
    exportOnce(reporter, 4, refused());
    exportOnce(reporter, 5, timedOut());
    expect(lines).toEqual([
      {
        level: 'warn',
        message:
          'toolhooks: span export failed (connect ECONNREFUSED 127.0.0.1:4318); dropped 3 spans. ' +
          'Further drops are counted and reported when export recovers or at shutdown.',
      },
    ]);
    expect(exportOnce(reporter, 2, OK)).toEqual(OK);
    expect(lines.at(-1)).toEqual({ level: 'info', message: 'toolhooks: span export recovered; 12 spans were dropped while it failed' });
    expect(reporter.dropped).toBe(12);

    exportOnce(reporter, 1, timedOut()); // a new outage is a new report
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(lines.at(-1)?.message).toContain('span export failed (Request timed out); dropped 1 spans');
  });

  it('counts an export that was pending when the collector came back into the same outage, and reports recovery after it', () => {
    const reporter = new DropReporter('log', 'log records');
    exportOnce(reporter, 10, timedOut());
    const hanging = reporter.exportStarted(); // sent to the hanging collector
    exportOnce(reporter, 5, OK); // the collector answers again
    expect(lines.filter((l) => l.level === 'info')).toEqual([]); // not yet: an older export is still under way
    reporter.settle(timedOut(), 7, hanging);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(lines[1]?.message).toBe('toolhooks: log export recovered; 17 log records were dropped while it failed');
  });

  it('keeps the outage open when an export begun after the first success fails again', () => {
    const reporter = new DropReporter('span', 'spans');
    exportOnce(reporter, 1, refused());
    const older = reporter.exportStarted();
    exportOnce(reporter, 1, OK);
    exportOnce(reporter, 2, refused()); // begun after the success: the collector is flapping
    reporter.settle(OK, 1, older);
    expect(lines.map((l) => l.level)).toEqual(['warn']);
    exportOnce(reporter, 1, OK);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(lines[1]?.message).toContain('3 spans were dropped');
  });

  it('reports queue overflow once, and does not call it recovered while exports succeed but the queue still overflows', () => {
    const reporter = new DropReporter('span', 'spans');
    const slow = reporter.exportStarted();
    reporter.dropQueued(1, 2048);
    reporter.dropQueued(1, 2048);
    expect(lines).toEqual([
      {
        level: 'warn',
        message:
          'toolhooks: span export cannot keep up (queue full at maxQueueSize 2048); dropped 1 spans. ' +
          'Further drops are counted and reported when export recovers or at shutdown.',
      },
    ]);
    reporter.settle(OK, 512, slow); // it succeeded, but the queue overflowed while it was under way
    expect(lines).toHaveLength(1);
    exportOnce(reporter, 3, timedOut()); // failures during the same outage are counted, not warned
    exportOnce(reporter, 512, OK); // no overflow during this one: recovered
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(lines[1]?.message).toBe('toolhooks: span export recovered; 5 spans were dropped while it failed');
  });

  it('at shutdown: says how much was dropped if exports still fail, closes a recovery that waited on pending exports, else nothing', () => {
    const failing = new DropReporter('metric', 'data points');
    exportOnce(failing, 26, refused());
    failing.reportOutstanding(); // nothing more dropped since the warning: nothing to add
    exportOnce(failing, 26, refused());
    failing.reportOutstanding();
    failing.reportOutstanding();
    expect(lines.map((l) => l.message)).toEqual([
      expect.stringContaining('metric export failed'),
      'toolhooks: metric export was still failing at shutdown; 52 data points were dropped in all',
    ]);

    lines = [];
    const recovering = new DropReporter('log', 'log records');
    exportOnce(recovering, 4, refused());
    recovering.exportStarted(); // never settled before shutdown
    exportOnce(recovering, 1, OK);
    recovering.reportOutstanding();
    expect(lines.map((l) => l.message)).toEqual([
      expect.stringContaining('log export failed'),
      'toolhooks: log export recovered; 4 log records were dropped while it failed',
    ]);

    lines = [];
    const healthy = new DropReporter('span', 'spans');
    exportOnce(healthy, 4, OK);
    healthy.reportOutstanding();
    expect(lines).toEqual([]);
  });
});

describe('DropReporter at a shutdown deadline', () => {
  it('counts what is still queued or under way as dropped, names the reason, and ignores a late result', () => {
    const reporter = new DropReporter('span', 'spans');
    const late = reporter.exportStarted(7);
    reporter.abandon(5, 'was not exported within shutdownTimeoutMillis (2000 ms)');
    expect(reporter.dropped).toBe(12);
    expect(reporter.settle({ code: ExportResultCode.FAILED, error: new Error('late') }, 7, late)).toEqual(OK);
    expect(reporter.dropped).toBe(12);
    expect(reporter.reportOutstanding()).toEqual({
      signal: 'span',
      unit: 'spans',
      dropped: 12,
      reason: 'was not exported within shutdownTimeoutMillis (2000 ms)',
    });
  });
});

describe('QueueGate', () => {
  it('admits up to maxQueueSize items not yet handed to the exporter, and counts the rest as dropped', () => {
    const reporter = new DropReporter('span', 'spans');
    const gate = new QueueGate(3, reporter);
    expect([gate.admit(), gate.admit(), gate.admit(), gate.admit(), gate.admit()]).toEqual([true, true, true, false, false]);
    expect(reporter.dropped).toBe(2);
    expect(lines.map((l) => l.message)).toEqual([expect.stringContaining('span export cannot keep up (queue full at maxQueueSize 3); dropped 1 spans')]);
    gate.release(2); // a batch of two went to the exporter
    expect([gate.admit(), gate.admit(), gate.admit()]).toEqual([true, true, false]);
    expect(reporter.dropped).toBe(3);
  });
});
