/**
 * The exact diff replaying policy v2 against the traffic recorded under policy v1 must produce, with the
 * trace and span ids looked up from what the receiver decoded.
 */
import type { ReplayReport } from '../../../src/replay/index.js';
import { callSpan, type RecordedTraffic } from './record-traffic.js';

function ids(traffic: RecordedTraffic, tool: string, callId: string | undefined): { traceId: string; spanId: string } {
  const span = callSpan(traffic, tool, callId);
  return { traceId: span.traceId, spanId: span.spanId };
}

/** What `replay({ hooks: policy v2 })` resolves to for {@link recordTraffic}'s traffic. */
export function expectedV2Report(traffic: RecordedTraffic): ReplayReport {
  return {
    calls: 9,
    replayed: 8,
    notReplayable: 1,
    unchanged: 3,
    changed: [
      {
        ...ids(traffic, 'http_get', 'call_3'),
        tool: 'http_get',
        callId: 'call_3',
        recorded: { decision: 'continue', hook: null },
        replayed: { decision: 'abort', hook: 'no-inline-keys', reason: 'API keys belong in the vault' },
        phase: 'before_tool',
        flags: ['redacted'],
      },
      {
        ...ids(traffic, 'search', 'call_4'),
        tool: 'search',
        callId: 'call_4',
        recorded: { decision: 'skip', hook: 'cache' },
        replayed: { decision: 'continue', hook: null, reason: null },
        phase: 'before_tool',
        flags: [],
      },
      {
        ...ids(traffic, 'read_file', undefined),
        tool: 'read_file',
        callId: null,
        recorded: { decision: 'continue', hook: null },
        replayed: { decision: 'redirect', hook: 'path-guard', reason: 'sandboxed' },
        phase: 'before_tool',
        flags: [],
      },
      {
        ...ids(traffic, 'write_file', 'call_6'),
        tool: 'write_file',
        callId: 'call_6',
        recorded: { decision: 'continue', hook: null },
        replayed: { decision: 'abort', hook: 'size-limit', reason: 'content too large' },
        phase: 'before_tool',
        flags: ['truncated'],
      },
      {
        ...ids(traffic, 'fetch', 'call_7'),
        tool: 'fetch',
        callId: 'call_7',
        recorded: { decision: 'continue', hook: null },
        replayed: { decision: 'abort', hook: 'leak-guard', reason: 'result holds a private key' },
        phase: 'after_tool',
        flags: [],
      },
    ],
    flips: { 'continue→abort': 2, 'skip→continue': 1, 'continue→redirect': 1 },
    loosened: 1,
    hookErrors: [
      {
        ...ids(traffic, 'search', 'call_8'),
        tool: 'search',
        callId: 'call_8',
        phase: 'before_tool',
        hook: 'flaky',
        kind: 'threw',
        message: 'policy service down',
      },
    ],
  };
}

/** The recorded traffic as one OTLP/JSON object (all bodies' resourceSpans merged), as a backend export holds it. */
export function asOneObject(traffic: RecordedTraffic): { resourceSpans: unknown[] } {
  return { resourceSpans: traffic.bodies.flatMap((body) => (JSON.parse(body) as { resourceSpans: unknown[] }).resourceSpans) };
}
