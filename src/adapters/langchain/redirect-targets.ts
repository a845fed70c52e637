/**
 * Redirect targets learned per agent: one `toolhooksMiddleware` may be given to several agents, and a
 * Redirect must only ever run a tool of the agent the call came from (a public agent must not run the
 * admin agent's `delete_user`). The tools an agent offered its model are remembered under the tool call
 * ids of that model response, and looked up by the id of each tool call it makes.
 * @internal
 */
import { AIMessage } from '@langchain/core/messages';
import { setBounded } from '../../internal/bounded-map.js';

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

/** What one middleware learned from its agents' model calls. */
export class LearnedRedirectTargets {
  readonly #byCallId = new Map<string, ReadonlyMap<string, object>>();

  /** Remembers the tools a model call offered, for each tool call its response asks for. */
  learn(offered: readonly unknown[], response: unknown): void {
    if (!AIMessage.isInstance(response)) return;
    const calls = response.tool_calls ?? [];
    if (calls.length === 0) return;
    const tools = toolsByName(offered);
    for (const call of calls) {
      if (typeof call.id === 'string') setBounded(this.#byCallId, call.id, tools, MAX_REMEMBERED_CALLS);
    }
  }

  /** The tools of the agent that made this tool call; none when the call is unknown (no Redirect target). */
  of(callId: string | undefined): ReadonlyMap<string, object> {
    return callId === undefined ? NONE : (this.#byCallId.get(callId) ?? NONE);
  }

  /** The call is over: its entry is no longer needed. */
  forget(callId: string | undefined): void {
    if (callId !== undefined) this.#byCallId.delete(callId);
  }
}
