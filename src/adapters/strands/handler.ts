/**
 * ToolhooksInterventions: the Strands Agents intervention handler (for the Agent's `interventions`)
 * that {@link toolhooksHooks} builds; it runs every tool call of the agent through the hooks, as one
 * `execute_tool` call.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import { typeName } from '../../internal/describe.js';
import { warnVisibly } from '../../telemetry/warn-once.js';
import type { AdapterSettings } from '../settings.js';
import { copyWith } from '../tool-copy.js';
import type { StrandsApprovals } from './approvals.js';
import { runStrandsCall } from './call.js';
import type { StrandsBeforeToolCallEvent, StrandsInterventionAction, StrandsProceed, StrandsTool, StrandsToolContext, StrandsToolResultBlock } from './types.js';

/** The Strands line this adapter is written against. */
const SUPPORTED_STRANDS_RANGE = '@strands-agents/sdk >=1.11.2 <2';

const PROCEED: StrandsProceed = Object.freeze({ type: 'proceed' });

/** The tools the handlers selected (the hooked copies): a second toolhooks handler must not hook them again. */
const hookedTools = new WeakSet<object>();

let warnedShape = false;

/**
 * The handler {@link toolhooksHooks} returns: a Strands `InterventionHandler` in shape (every method
 * Strands calls), built without importing Strands. Only `beforeToolCall` does anything: it selects,
 * for the call, a copy of the tool whose `stream()` runs the whole call through the hooks.
 *
 * @example
 * ```ts
 * const handler: ToolhooksInterventions = toolhooksHooks(hooks, { name: 'policy-hooks' });
 * const agent = new Agent({ model, tools: [shell], interventions: [handler] });
 * ```
 */
export class ToolhooksInterventions {
  static {
    // Two handlers from the package's two builds are both toolhooks handlers (the double-registration check).
    brandAcrossBuilds(this, 'ToolhooksInterventions');
  }

  readonly name: string;
  /** A failure of this handler fails the invocation (Strands' `onError: 'throw'`): a hook's own failure never gets here. */
  readonly onError = 'throw' as const;
  readonly #settings: AdapterSettings<unknown, StrandsApprovals>;

  /** @internal use {@link toolhooksHooks} */
  constructor(name: string, settings: AdapterSettings<unknown, StrandsApprovals>) {
    this.name = name;
    this.#settings = settings;
  }

  /**
   * Selects, for this call, a copy of the tool Strands would run (a hook's or an earlier handler's
   * choice included) whose `stream()` runs the call through the hooks: Strands runs it inside its
   * own `execute_tool` span, which is then the call's only one.
   */
  beforeToolCall(event: StrandsBeforeToolCallEvent): StrandsInterventionAction {
    if (event?.toolUse === undefined || event.agent === undefined) {
      if (!warnedShape) {
        warnedShape = true;
        warnVisibly(
          `toolhooks: toolhooksHooks supports ${SUPPORTED_STRANDS_RANGE}; this Strands called beforeToolCall without a tool use or an agent (got ${typeName(event?.toolUse)}), so its tool calls run without hooks — install a supported @strands-agents/sdk`,
          'TOOLHOOKS_STRANDS_VERSION',
        );
      }
      return PROCEED;
    }
    const chosen = chosenTool(event);
    // A tool Strands does not know: Strands answers the model itself ("not found in registry").
    if (chosen === undefined || typeof chosen.stream !== 'function') return PROCEED;
    if (hookedTools.has(chosen)) {
      throw new TypeError(
        `toolhooksHooks: two toolhooks handlers are registered in this Agent's interventions (the second is ${JSON.stringify(this.name)}); each tool call would run through hooks twice — register one toolhooksHooks (one HookRunner holds all the hooks)`,
      );
    }
    const hooked = this.#hooked(chosen);
    return {
      type: 'transform',
      reason: 'toolhooks',
      apply: (target: object) => {
        (target as StrandsBeforeToolCallEvent).selectedTool = hooked;
      },
    };
  }

  #hooked(tool: StrandsTool): StrandsTool {
    const settings = this.#settings;
    const stream = async function* (context: StrandsToolContext): AsyncGenerator<unknown, StrandsToolResultBlock, unknown> {
      const events: unknown[] = [];
      const result = await runStrandsCall(settings, tool, context, events);
      // What the tool streamed, once the call is over (the hooks decide on one result).
      yield* events;
      return result;
    };
    const hooked = copyWith(tool, 'stream', stream) as StrandsTool;
    hookedTools.add(hooked);
    return hooked;
  }

  // The rest of Strands' InterventionHandler: no opinion (Strands calls every method a handler has).
  beforeInvocation(): StrandsProceed {
    return PROCEED;
  }
  afterToolCall(): StrandsProceed {
    return PROCEED;
  }
  beforeModelCall(): StrandsProceed {
    return PROCEED;
  }
  afterModelCall(): StrandsProceed {
    return PROCEED;
  }
}

/**
 * The tool Strands would run for the event: one an earlier hook or handler selected, else the tool the
 * (possibly renamed) tool use names, as Strands resolves it.
 */
function chosenTool(event: StrandsBeforeToolCallEvent): StrandsTool | undefined {
  if (event.selectedTool !== undefined) return event.selectedTool;
  if (event.tool !== undefined && event.toolUse.name !== event.tool.name) return event.agent.toolRegistry?.get(event.toolUse.name);
  return event.tool;
}
