import { describe, expect, it } from 'vitest';
import { MAX_CELL_LENGTH } from '../../../src/replay/format.js';
import { formatReplayJson, formatReplayTable } from '../../../src/replay/index.js';
import type { ReplayChange, ReplayReport } from '../../../src/replay/index.js';

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
  flips: { 'skip→abort': 1 },
  loosened: 0,
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
        'Flips of the before_tool decision:',
        '',
        'skip→abort  1',
        '',
        '3 calls: 2 replayed, 1 not replayable (no captured arguments), 1 unchanged, 1 changed',
        '',
      ].join('\n'),
    );
  });

  it('escapes bidirectional controls, so a recorded name cannot reorder the row it is printed in', () => {
    const table = formatReplayTable({ ...report, changed: [{ ...(report.changed[0] as ReplayChange), tool: 'invoice\u202efdp.exe' }] });
    expect(table).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(table).toContain('invoice\\u202efdp.exe');
  });

  it('bounds every cell: one 200,000-character recorded tool name neither breaks the table nor hides the other changes', () => {
    const base = report.changed[0] as ReplayChange;
    const changed: ReplayChange[] = [{ ...base, tool: `huge${'x'.repeat(200_000)}` }];
    for (let index = 0; index < 3_000; index += 1) changed.push({ ...base, tool: `tool_${index}` });
    const table = formatReplayTable({ ...report, changed, replayed: 3_001, unchanged: 0 });
    const rows = table.split('\n').filter((line) => /^(huge|tool_)/.test(line));
    expect(rows).toHaveLength(3_001);
    expect(rows[0]).toContain(`huge${'x'.repeat(MAX_CELL_LENGTH - 4)}…[truncated ${200_004 - MAX_CELL_LENGTH}]`);
    expect(Math.max(...rows.map((row) => row.length))).toBeLessThan(6 * MAX_CELL_LENGTH + 200);
    expect(rows.at(-1)).toMatch(/^tool_2999 /);
  });

  it('counts each flip class and says how many loosened', () => {
    const table = formatReplayTable({ ...report, flips: { 'abort→continue': 2, 'continue→ask': 1 }, loosened: 2 });
    expect(table).toContain(['Flips of the before_tool decision:', '', 'abort→continue  2', 'continue→ask    1', '', '2 loosened: recorded as stopped (abort, skip, ask), now continuing or redirected'].join('\n'));
  });

  it('says so when nothing changed', () => {
    expect(formatReplayTable({ ...report, unchanged: 2, changed: [], flips: {} })).toBe(
      'No decision changed.\n\n3 calls: 2 replayed, 1 not replayable (no captured arguments), 2 unchanged, 0 changed\n',
    );
  });
});

describe('formatReplayJson', () => {
  it('escapes what JSON.stringify leaves raw (DEL, C1, U+2028, bidi controls) and parses back to the same report', () => {
    const hostile = { ...report, changed: [{ ...(report.changed[0] as ReplayChange), tool: 'a\u009b2Jb\u0085c\u007fd\u2028e\u202ef' }] };
    const text = formatReplayJson(hostile);
    expect(text.trimEnd()).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    expect(text).toContain('"tool":"a\\u009b2Jb\\u0085c\\u007fd\\u2028e\\u202ef"');
    expect(JSON.parse(text)).toEqual(hostile);
  });

  it('prints one line holding the report object', () => {
    const text = formatReplayJson(report);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd()).not.toContain('\n');
    expect(JSON.parse(text)).toEqual(report);
  });
});
