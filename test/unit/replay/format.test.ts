import { describe, expect, it } from 'vitest';
import { formatReplayJson, formatReplayTable } from '../../../src/replay/index.js';
import type { ReplayReport } from '../../../src/replay/index.js';

const report: ReplayReport = {
  calls: 3,
  replayed: 2,
  notReplayable: 1,
  unchanged: 1,
  changed: [
    {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      tool: 'shell\u001b[2J',
      callId: null,
      recorded: { decision: 'skip', hook: 'cache' },
      replayed: { decision: 'abort', hook: 'gate', reason: 'line one\nline two' },
      phase: 'before_tool',
      flags: ['redacted'],
    },
  ],
  hookErrors: [],
};

describe('formatReplayTable', () => {
  it('prints the changed calls with control characters escaped, the flag note, then the counts', () => {
    expect(formatReplayTable(report)).toBe(
      [
        'Changed decisions (1):',
        '',
        'TOOL            CALL ID  TRACE ID                          PHASE        RECORDED -> REPLAYED   HOOK  FLAGS     REASON',
        'shell\\u001b[2J  -        0af7651916cd43dd8448eb211c80319c  before_tool  skip (cache) -> abort  gate  redacted  "line one\\u000aline two"',
        '',
        'FLAGS: the recorded values held redacted or truncated parts, which replay as the placeholders',
        '("[REDACTED]", "…[truncated N]"); the live call may decide otherwise.',
        '',
        '3 calls: 2 replayed, 1 not replayable (no captured arguments), 1 unchanged, 1 changed',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing changed', () => {
    expect(formatReplayTable({ ...report, unchanged: 2, changed: [] })).toBe(
      'No decision changed.\n\n3 calls: 2 replayed, 1 not replayable (no captured arguments), 2 unchanged, 0 changed\n',
    );
  });
});

describe('formatReplayJson', () => {
  it('prints one line holding the report object', () => {
    const text = formatReplayJson(report);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd()).not.toContain('\n');
    expect(JSON.parse(text)).toEqual(report);
  });
});
