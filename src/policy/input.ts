/**
 * The document a policy engine evaluates, built with the bounded JSON writer capture uses: one walk
 * that survives cycles, getters that throw, 100k-key objects and 50 MB strings, and leaves marks
 * (`…[truncated N]`, `[N more keys]`) where it cut. The engine sees plain, bounded JSON data.
 * @internal
 */
import type { HookContext, ToolArgs } from '../hook.js';
import { serializeBounded } from '../telemetry/capture/bounded-json.js';
import type { PolicyInput } from './types.js';

/** The longest input document, in characters of JSON (docs/policies.md, "The input document"). */
export const MAX_INPUT_CHARS = 262_144;
/** The longest string in it: a longer one is cut and marked. */
const MAX_INPUT_STRING = 16_384;

/** Nothing is redacted: the document goes to the app's own policy, not to telemetry. */
function redactsNothing(): boolean {
  return false;
}

/** What one evaluation is about, before it is bounded. */
interface InputParts {
  readonly phase: 'before_tool' | 'after_tool';
  readonly tool: string;
  readonly args: ToolArgs;
  readonly ctx: HookContext;
  /** after_tool: the tool's result (`hasResult` says whether there is one, as `undefined` is a result too). */
  readonly result?: unknown;
  readonly hasResult: boolean;
  readonly context: Record<string, unknown> | undefined;
}

/** The bounded input document of one evaluation, as JSON text (what {@link parseInput} makes an object of). */
export function policyInputJson(parts: InputParts): string {
  // The small fields first: when the budget runs out, it is the arguments or the result that are cut.
  const doc: Record<string, unknown> = { phase: parts.phase, tool: parts.tool };
  const { callId, agentName } = parts.ctx;
  if (callId !== undefined) doc.callId = callId;
  if (agentName !== undefined) doc.agent = agentName;
  doc.context = parts.context ?? {};
  doc.args = parts.args;
  if (parts.hasResult) doc.result = parts.result;
  return serializeBounded(doc, MAX_INPUT_CHARS, MAX_INPUT_STRING, redactsNothing);
}

/** The document as an object. A document cut short keeps its shape: args and context stay objects, whatever the writer left. */
export function parseInput(json: string): PolicyInput {
  const input = JSON.parse(json) as Record<string, unknown>;
  if (!isRecord(input.args)) input.args = {};
  if (!isRecord(input.context)) input.context = {};
  return input as unknown as PolicyInput;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
