/**
 * toolhooksPlugin: a Google ADK plugin (a `BasePlugin` for the Runner's `plugins`) that runs every tool
 * call of the agent through the hooks, as one `execute_tool` call.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import { runnerCore } from '../../runner/registry.js';
import { warnVisibly } from '../../telemetry/warn-once.js';
import type { HookedSetSettings } from '../shared.js';
import { readApprovalsMode, readLimits, requireOptionsObject, requireRunner } from '../shared.js';
import { AdkApprovals, recordRefusedConfirmations, withInterimResponses } from './approvals.js';
import type { AdkResponse } from './call.js';
import { runAdkCall } from './call.js';
import type { AdkEvent, AdkInvocationContext, AdkToolCallbackParams } from './types.js';

/**
 * Options of {@link toolhooksPlugin}.
 *
 * @example
 * ```ts
 * const plugin = toolhooksPlugin(runner, { state: { user }, approvals: 'framework' });
 * ```
 */
export interface ToolhooksPluginOptions<S = unknown> {
  /** State passed to every hook. */
  state?: S;
  /** How many times an on_error Redirect may retry a tool. Default 1. */
  maxRetries?: number;
  /** How many times an after_tool Redirect may re-execute a tool. Default 1. */
  maxReexecutions?: number;
  /**
   * Who answers a before_tool Ask. `'runner'` (the default): the runner's `approver`, inside the
   * call. `'framework'`: ADK's tool confirmation — the call requests a confirmation pinned to it, the
   * run pauses with an `adk_request_confirmation` call, and the run that carries the user's answer
   * (in this process or another) runs the call with it.
   */
  approvals?: 'runner' | 'framework';
  /** The plugin's name in the Runner (ADK requires unique names). Default `'toolhooks'`. */
  name?: string;
}

/** The ADK line this adapter is written against. */
const SUPPORTED_ADK_RANGE = '@google/adk >=2.0.0 <3';

const OPTIONS = ['state', 'maxRetries', 'maxReexecutions', 'approvals', 'name'] as const;

let warnedShape = false;

/**
 * The plugin {@link toolhooksPlugin} returns: an ADK `BasePlugin` in shape (every callback ADK calls),
 * built without importing ADK. Only `beforeToolCallback`, `beforeRunCallback` and (with
 * `approvals: 'framework'`) `onEventCallback` do anything.
 *
 * @example
 * ```ts
 * const plugin: ToolhooksPlugin = toolhooksPlugin(hooks, { name: 'policy-hooks' });
 * const runner = new InMemoryRunner({ agent, plugins: [plugin] });
 * ```
 */
export class ToolhooksPlugin {
  static {
    // Two plugins from the package's two builds are both toolhooks plugins (the double-registration check).
    brandAcrossBuilds(this, 'ToolhooksPlugin');
  }

  readonly name: string;
  readonly #settings: HookedSetSettings<unknown, AdkApprovals>;

  /** @internal use {@link toolhooksPlugin} */
  constructor(name: string, settings: HookedSetSettings<unknown, AdkApprovals>) {
    this.name = name;
    this.#settings = settings;
  }

  /**
   * Runs the call through the hooks and answers ADK with its response, so ADK does not run the tool
   * again: the tool (after the agent's own `beforeToolCallback`s) ran inside the call, and its
   * `execute_tool` span is the only one for the call.
   */
  async beforeToolCallback(params: AdkToolCallbackParams): Promise<AdkResponse | undefined> {
    if (typeof params?.tool?.runAsync !== 'function' || params.toolContext?.invocationContext === undefined) {
      if (!warnedShape) {
        warnedShape = true;
        warnVisibly(
          `toolhooks: toolhooksPlugin supports ${SUPPORTED_ADK_RANGE}; this ADK called beforeToolCallback without a tool or an invocation context (got ${typeName(params?.tool)}), so its tool calls run without hooks — install a supported @google/adk`,
          'TOOLHOOKS_ADK_VERSION',
        );
      }
      return undefined;
    }
    return runAdkCall(this.#settings, params);
  }

  /** The after_tool phase ran inside the call (a Replace is the response already): nothing to add. */
  async afterToolCallback(): Promise<undefined> {
    return undefined;
  }

  /** Errors of tools the plugin ran are the call's own (on_error): nothing to add. */
  async onToolErrorCallback(): Promise<undefined> {
    return undefined;
  }

  /**
   * Checks the Runner's plugins once per run (two toolhooks plugins would hook each call twice) and
   * records the confirmations ADK is about to refuse as not bound to their call.
   */
  async beforeRunCallback(params: { invocationContext: AdkInvocationContext }): Promise<undefined> {
    const plugins = (params?.invocationContext as { pluginManager?: { plugins?: Iterable<unknown> } } | undefined)?.pluginManager?.plugins;
    if (plugins !== undefined) {
      const ours = [...plugins].filter((plugin) => plugin instanceof ToolhooksPlugin);
      if (ours.length > 1) {
        throw new TypeError(
          `toolhooksPlugin: ${ours.length} toolhooks plugins are registered in this Runner's plugins (${ours.map((plugin) => JSON.stringify((plugin as ToolhooksPlugin).name)).join(', ')}); each tool call would run through hooks twice — register one toolhooksPlugin (one HookRunner holds all the hooks)`,
        );
      }
    }
    if (this.#settings.approvals !== undefined) await recordRefusedConfirmations(this.#settings.core, params?.invocationContext);
    return undefined;
  }

  // The rest of ADK's BasePlugin: no opinion.
  async onUserMessageCallback(): Promise<undefined> {
    return undefined;
  }
  /**
   * With `approvals: 'framework'`: the event that asks the user to confirm a call the hooks asked
   * about also carries the call's interim response, so that ADK resumes the call when the answer comes
   * (ADK resumes a plugin's confirmation only for a call it saw a response to).
   */
  async onEventCallback<E extends AdkEvent>(params: { event: E }): Promise<E | undefined> {
    return this.#settings.approvals === undefined ? undefined : withInterimResponses(params?.event);
  }
  async afterRunCallback(): Promise<void> {}
  async beforeAgentCallback(): Promise<undefined> {
    return undefined;
  }
  async afterAgentCallback(): Promise<undefined> {
    return undefined;
  }
  async beforeNodeCallback(): Promise<undefined> {
    return undefined;
  }
  async afterNodeCallback(): Promise<undefined> {
    return undefined;
  }
  async beforeModelCallback(): Promise<undefined> {
    return undefined;
  }
  async afterModelCallback(): Promise<undefined> {
    return undefined;
  }
  async onModelErrorCallback(): Promise<undefined> {
    return undefined;
  }
  async beforeToolSelection(): Promise<undefined> {
    return undefined;
  }
  async beforeContextCompaction(): Promise<void> {}
  async afterContextCompaction(): Promise<void> {}
}

/**
 * Builds a Google ADK plugin (`@google/adk` 2.x) for the Runner's `plugins` that runs every tool call
 * of its agents through the hooks, each as one `execute_tool` call. Register it last in `plugins`:
 * ADK stops at the first plugin whose `beforeToolCallback` answers, and this one answers every call
 * with the call's response (the tool ran inside it), so plugins after it do not see tool calls.
 * - Continue: the tool runs (after the agent's own `beforeToolCallback`s), inside the call.
 * - Skip: the stub is the tool's response (a string or number as `{ result }`, as ADK shapes one).
 * - Redirect: other arguments, or another tool of the agent (`newTool` names one of its tools).
 * - Abort: the model reads `{ error: "This tool call was aborted by <hook>. Reason: <reason>" }` (as
 *   ADK's own SecurityPlugin denies a call) and the run goes on: ADK rewraps a plugin's error without
 *   its cause, so a thrown HookAbortError would not reach the app.
 * - Ask: the runner's `approver`, or (`approvals: 'framework'`) ADK's tool confirmation.
 * - Replace: the response is the replacement (the after_tool phase runs inside the call).
 * - A tool's error: the other plugins' `onToolErrorCallback`s run first (as in ADK); then on_error.
 *
 * @example
 * ```ts
 * import { InMemoryRunner, LlmAgent } from '@google/adk';
 * import { HookRunner, abort } from 'toolhooks';
 * import { toolhooksPlugin } from 'toolhooks/adk';
 *
 * const hooks = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) }]);
 * const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model: 'gemini-2.5-flash', tools: [shell] }), plugins: [toolhooksPlugin(hooks)] });
 * ```
 */
export function toolhooksPlugin<S = unknown>(runner: HookRunner<S>, options?: ToolhooksPluginOptions<S>): ToolhooksPlugin {
  const where = 'toolhooksPlugin';
  const core = requireRunner<S>(runner, where);
  if (isRunner(options)) {
    throw new TypeError(`${where}(runner, options): options is a HookRunner; pass one runner, then the options object: toolhooksPlugin(runner, { state })`);
  }
  const raw = requireOptionsObject(options, where, OPTIONS);
  const name = raw.name ?? 'toolhooks';
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: options.name must be a non-empty string, got ${typeName(name)}`);
  const approvals = readApprovalsMode(raw.approvals, where) === 'framework' ? new AdkApprovals() : undefined;
  const settings: HookedSetSettings<S, AdkApprovals> = { core, state: raw.state as S | undefined, limits: readLimits(raw, where), approvals };
  return new ToolhooksPlugin(name, settings as HookedSetSettings<unknown, AdkApprovals>);
}

function isRunner(value: unknown): boolean {
  try {
    runnerCore(value, 'toolhooksPlugin');
    return true;
  } catch {
    return false;
  }
}
