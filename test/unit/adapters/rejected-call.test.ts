/**
 * A call the framework rejected before it ran, with input that is not JSON (issue 29): with capture on,
 * neither the captured input nor the framework's error quoting it carries a redacted key's value —
 * whichever adapter records it (the AI SDK, OpenAI Agents and Mastra all record through this module).
 */
import { describe, expect, it } from 'vitest';
import { recordRejectedCall } from '../../../src/adapters/rejected-call.js';
import { runnerCore } from '../../../src/runner/registry.js';
import { ATTR_GEN_AI_TOOL_CALL_ARGUMENTS } from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const RAW = '{"to":"bob","password":"hunter2-secret","memo":"rent", api_key=sk-live-9';

describe('recordRejectedCall', () => {
  it.each([
    ['the OpenAI Agents SDK', new Error(`Invalid JSON input for tool send: ${RAW}`)],
    ['Mastra', new Error(`Tool input validation failed for send. Please fix the following errors and try again:\n- root: Invalid JSON\nProvided arguments: ${JSON.stringify(RAW)}`)],
  ])("capture on: %s's error quoting unparseable input keeps no redacted value", async (_framework, error) => {
    const core = runnerCore(tracing.runner([], { capture: { args: true } }), 'test');
    await recordRejectedCall(core, { toolName: 'send', callId: 'c1', input: RAW }, error);
    const span = tracing.onlySpan('execute_tool send');
    const recorded = JSON.stringify({ status: span.status, attributes: span.attributes });
    expect(recorded).not.toContain('hunter2-secret');
    expect(recorded).not.toContain('sk-live-9');
    expect(recorded).toContain('rent');
    expect(JSON.parse(String(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]))).toEqual({
      input: '{"to":"bob","password":"[REDACTED]","memo":"rent", api_key=[REDACTED]',
    });
  });
});
