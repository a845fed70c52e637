/**
 * The `execute_tool` span `@ai-sdk/otel` starts for a tool call. With that integration registered,
 * `ai` 7 runs each tool's `execute` inside the span it recorded for the call; toolhooks records on
 * that span (its phase spans below it) rather than starting a second `execute_tool` for the same call.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { reportTelemetryFailure } from '../telemetry/failures.js';
import { sdkSpanNameAndAttributes } from '../telemetry/otel-private.js';
import { ATTR_GEN_AI_TOOL_CALL_ID, SPAN_EXECUTE_TOOL_PREFIX } from '../telemetry/semconv.js';

/**
 * The active span when it is the framework's recording `execute_tool {toolName}` span of this call
 * (same call id, when it carries one), else undefined. Never throws.
 */
export function frameworkToolSpan(toolName: string, toolCallId: string | undefined): Span | undefined {
  try {
    const span = trace.getActiveSpan();
    // An ended span is not recording (the API's own answer): only the name and attributes need the SDK's.
    if (span === undefined || !span.isRecording()) return undefined;
    const parts = sdkSpanNameAndAttributes(span);
    if (parts.name !== `${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`) return undefined;
    const recordedId = parts.attributes?.[ATTR_GEN_AI_TOOL_CALL_ID];
    if (recordedId !== undefined && recordedId !== toolCallId) return undefined;
    return span;
  } catch (error) {
    reportTelemetryFailure('framework execute_tool span', error);
    return undefined;
  }
}
