/**
 * ToolhooksPlugin: the Google ADK plugin (a `BasePlugin` for the Runner's `plugins`) that
 * {@link toolhooksPlugin} builds; its `beforeToolCallback` runs every tool call of the agent through the
 * hooks, as one `execute_tool` call.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import { typeName } from '../../internal/describe.js';
import { warnVisibly } from '../../telemetry/warn-once.js';
import type { AdapterSettings } from '../settings.js';
import type { AdkApprovals } from './approvals.js';
import { recordRefusedConfirmations, withInterimResponses } from './approvals.js';
import type { AdkResponse } from './call.js';
import { runAdkCall } from './call.js';
import type { AdkEvent, AdkInvocationContext, AdkToolCallbackParams } from './types.js';

/** The ADK line this adapter is written against. */
const SUPPORTED_ADK_RANGE = '@google/adk >=2.0.0 <3';

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
  readonly #settings: AdapterSettings<unknown, AdkApprovals>;

  /** @internal use {@link toolhooksPlugin} */
  constructor(name: string, settings: AdapterSettings<unknown, AdkApprovals>) {
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
