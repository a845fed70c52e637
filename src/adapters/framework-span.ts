/**
 * The `execute_tool` span a framework starts for a tool call. With `@ai-sdk/otel` registered, `ai` 7
 * runs each tool's `execute` inside the span it recorded for the call; Strands, with its tracing on, runs
 * a tool's `stream()` inside its own. toolhooks records on that span (its phase spans below it) rather
 * than starting a second `execute_tool` for the same call.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import { recordingActiveSpan } from '../telemetry/span.js';
import { ATTR_GEN_AI_TOOL_CALL_ID, SPAN_EXECUTE_TOOL_PREFIX } from '../telemetry/semconv.js';

/**
 * The active span when it is the framework's recording `execute_tool {toolName}` span of this call
 * (same call id, when it carries one), else undefined. Never throws.
 */
export function frameworkToolSpan(toolName: string, toolCallId: string | undefined): Span | undefined {
  return recordingActiveSpan('framework execute_tool span', isSpanOfCall, toolName, toolCallId);
}

/** Whether a span's name and attributes are those of the framework's `execute_tool` span of this call. */
function isSpanOfCall(name: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined, toolName: string, toolCallId: string | undefined): boolean {
  if (name !== `${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`) return false;
  const recordedId = attributes?.[ATTR_GEN_AI_TOOL_CALL_ID];
  return recordedId === undefined || recordedId === toolCallId;
}
