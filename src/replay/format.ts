/**
 * Writing a replay report for people (a table of the changes, then counts) and for programs (one JSON
 * object). Recorded values come from traces anyone with tool access could shape, so every table cell
 * is written with control characters escaped (a tool name cannot move the cursor, forge a line or
 * reorder the text around it) and bounded (one huge recorded name cannot blow the table up or push the
 * other rows out of sight); the JSON holds every value whole, with the same characters escaped.
 */
import { escapeControlCharacters } from '../telemetry/capture/sanitize.js';
import { cut } from '../telemetry/capture/truncate.js';
import type { RecordedDecision, ReplayChange, ReplayReport } from './types.js';

/** The most characters of recorded text one table cell shows; the rest is cut with `…[truncated N]`. */
export const MAX_CELL_LENGTH = 200;

function cell(text: string): string {
  return cut(escapeControlCharacters(text), MAX_CELL_LENGTH);
}

function decisionText(decision: RecordedDecision): string {
  return decision.hook === null ? decision.decision : `${decision.decision} (${decision.hook})`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  // A loop, not Math.max(...rows): a spread of one argument per row overflows the stack on big reports.
  const widths = header.map((title) => title.length);
  for (const row of rows) {
    row.forEach((value, column) => {
      widths[column] = Math.max(widths[column] ?? 0, value.length);
    });
  }
  const line = (row: readonly string[]): string =>
    row
      .map((value, column) => (column === row.length - 1 ? value : value.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function changeRow(change: ReplayChange, withFlags: boolean): string[] {
  const row = [
    cell(change.tool),
    cell(change.callId ?? '-'),
    change.traceId,
    change.phase,
    `${cell(decisionText(change.recorded))} -> ${change.replayed.decision}`,
    cell(change.replayed.hook ?? '-'),
  ];
  if (withFlags) row.push(change.flags.length === 0 ? '-' : change.flags.join(','));
  row.push(change.replayed.reason === null ? '-' : `"${cell(change.replayed.reason)}"`);
  return row;
}

/**
 * The report as the CLI prints it without `--json`: the changed calls (tool, call id, trace id, phase,
 * recorded -> replayed, winning hook, reason; a FLAGS column when a change was replayed from redacted or
 * truncated values), the hook errors, then the counts. Ends with a newline.
 *
 * @example
 * ```ts
 * process.stdout.write(formatReplayTable(await replay({ hooks, source: 'traces.jsonl' })));
 * ```
 */
export function formatReplayTable(report: ReplayReport): string {
  const lines: string[] = [];
  if (report.changed.length === 0) {
    lines.push('No decision changed.');
  } else {
    const withFlags = report.changed.some((change) => change.flags.length > 0);
    const header = ['TOOL', 'CALL ID', 'TRACE ID', 'PHASE', 'RECORDED -> REPLAYED', 'HOOK'];
    if (withFlags) header.push('FLAGS');
    header.push('REASON');
    lines.push(`Changed decisions (${report.changed.length}):`, '');
    lines.push(...table(header, report.changed.map((change) => changeRow(change, withFlags))));
    if (withFlags) {
      lines.push(
        '',
        'FLAGS: the recorded values held redacted or truncated parts, which replay as the placeholders',
        '("[REDACTED]", "…[truncated N]"); the live call may decide otherwise.',
      );
    }
  }
  if (report.hookErrors.length > 0) {
    lines.push('', `Hook errors during replay (${report.hookErrors.length}; swallowed as continue, or abort when fail-closed):`, '');
    lines.push(
      ...table(
        ['TOOL', 'CALL ID', 'TRACE ID', 'PHASE', 'HOOK', 'KIND', 'MESSAGE'],
        report.hookErrors.map((failure) => [
          cell(failure.tool),
          cell(failure.callId ?? '-'),
          failure.traceId,
          failure.phase,
          cell(failure.hook),
          failure.kind,
          cell(failure.message),
        ]),
      ),
    );
  }
  const flips = Object.entries(report.flips);
  if (flips.length > 0) {
    lines.push('', 'Flips of the before_tool decision:', '');
    lines.push(...table(['FLIP', 'CALLS'], flips.map(([flip, count]) => [flip, String(count)])).slice(1));
    if (report.loosened > 0) lines.push('', `${report.loosened} loosened: recorded as stopped (abort, skip, ask), now continuing or redirected`);
  }
  lines.push(
    '',
    `${report.calls} calls: ${report.replayed} replayed, ${report.notReplayable} not replayable (no captured arguments), ` +
      `${report.unchanged} unchanged, ${report.replayed - report.unchanged} changed`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The report as one JSON object on one line (what `--json` prints), with a final newline. Values are
 * whole; the characters a terminal would act on that `JSON.stringify` leaves raw (DEL, C1, U+2028/U+2029,
 * bidirectional controls) are written as `\uXXXX` escapes, so the line prints inert and parses to the
 * same report.
 *
 * @example
 * ```ts
 * const report = JSON.parse(formatReplayJson(await replay({ hooks, source })));
 * ```
 */
export function formatReplayJson(report: ReplayReport): string {
  return `${escapeControlCharacters(JSON.stringify({
    calls: report.calls,
    replayed: report.replayed,
    notReplayable: report.notReplayable,
    unchanged: report.unchanged,
    changed: report.changed,
    flips: report.flips,
    loosened: report.loosened,
    hookErrors: report.hookErrors,
  }))}\n`;
}
