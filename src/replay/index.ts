/**
 * toolhooks/replay — run new hooks against recorded tool calls before they go live. Reads OTLP/JSON
 * traces recorded with capture on (a file, one object per line, an http(s) URL, or a Jaeger
 * `/api/v3/traces` response), replays each call's before_tool (and after_tool) phase through the hooks,
 * never running a tool, and reports every call whose effective decision changed. The CLI
 * `toolhooks replay` does the same from a shell; see docs/replay.md.
 *
 * @example
 * ```ts
 * import { replay } from 'toolhooks/replay';
 *
 * const report = await replay({ hooks: [policyV2], source: 'https://jaeger.internal/api/v3/traces?query.service_name=agent' });
 * if (report.changed.length > 0) console.log(JSON.stringify(report.changed, null, 2));
 * ```
 * @packageDocumentation
 */
export { replay } from './replay.js';
export { ReplayInputError } from './input-error.js';
export { formatReplayTable, formatReplayJson } from './format.js';
export type {
  ReplayHooks,
  ReplayOptions,
  ReplayReport,
  ReplayChange,
  ReplayHookError,
  ReplayFlag,
  RecordedDecision,
  ReplayedDecision,
} from './types.js';
