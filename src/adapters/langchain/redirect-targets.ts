/**
 * Redirect targets learned per agent: one `toolhooksMiddleware` may be given to several agents, and a
 * Redirect must only ever run a tool of the agent the call came from (a public agent must not run the
 * admin agent's `delete_user`). The tools an agent offered its model are remembered under the tool call
 * ids of that model response, and looked up by the id of each tool call it makes.
 * @internal
 */
import { AIMessage } from '@langchain/core/messages';
import { setBounded } from '../../internal/bounded-map.js';
import { jsonOf } from '../json-text.js';

/** Tool calls whose targets are remembered at most; the oldest are forgotten first (calls never run). */
const MAX_REMEMBERED_CALLS = 10_000;

const NONE: ReadonlyMap<string, object> = new Map();

/** The runnable tools of a model request, by name. */
function toolsByName(tools: readonly unknown[]): Map<string, object> {
  const byName = new Map<string, object>();
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') continue;
    const name = (tool as { name?: unknown }).name;
    if (typeof name === 'string' && typeof (tool as { invoke?: unknown }).invoke === 'function') byName.set(name, tool);
  }
  return byName;
}

/** The tools one model call offered, for one of the tool calls its response asked for (with that call's arguments). */
interface Learned {
  readonly args: string | undefined;
  readonly tools: ReadonlyMap<string, object>;
}

/**
 * What one middleware learned from its agents' model calls. Two agents whose models number their
 * calls alike (`call_0`) are told apart by the call's arguments; when even those are alike, only the
 * tools every such agent offered (the very same tool objects) are targets, never one agent's own.
 */
export class LearnedRedirectTargets {
  readonly #byCallId = new Map<string, Learned[]>();

  /** Remembers the tools a model call offered, for each tool call its response asks for. */
  learn(offered: readonly unknown[], response: unknown): void {
    if (!AIMessage.isInstance(response)) return;
    const calls = response.tool_calls ?? [];
    if (calls.length === 0) return;
    const tools = toolsByName(offered);
    for (const call of calls) {
      if (typeof call.id !== 'string') continue;
      const learned = this.#byCallId.get(call.id) ?? [];
      learned.push({ args: jsonOf(call.args), tools });
      setBounded(this.#byCallId, call.id, learned, MAX_REMEMBERED_CALLS);
    }
  }

  /** The tools of the agent that made this tool call; none when the call is unknown (no Redirect target). */
  of(callId: string | undefined, args: unknown): ReadonlyMap<string, object> {
    const learned = callId === undefined ? undefined : this.#byCallId.get(callId);
    if (learned === undefined || learned.length === 0) return NONE;
    if (learned.length === 1) return (learned[0] as Learned).tools;
    const json = jsonOf(args);
    const same = learned.filter((entry) => entry.args === json);
    return common(same.length === 0 ? learned : same);
  }

  /** The call is over: its entry is no longer needed. */
  forget(callId: string | undefined, args: unknown): void {
    const learned = callId === undefined ? undefined : this.#byCallId.get(callId);
    if (callId === undefined || learned === undefined) return;
    // The usual case, one agent's call: no arguments to compare.
    if (learned.length <= 1) {
      this.#byCallId.delete(callId);
      return;
    }
    const json = jsonOf(args);
    const index = learned.findIndex((entry) => entry.args === json);
    learned.splice(index < 0 ? 0 : index, 1);
  }
}

/** The tools every entry offered, as the very same objects: what a call shared by several agents may run. */
function common(learned: readonly Learned[]): ReadonlyMap<string, object> {
  const [first, ...rest] = learned;
  if (first === undefined) return NONE;
  if (rest.every((entry) => entry.tools === first.tools)) return first.tools;
  const shared = new Map<string, object>();
  for (const [name, tool] of first.tools) if (rest.every((entry) => entry.tools.get(name) === tool)) shared.set(name, tool);
  return shared;
}
