/**
 * toolhooksHooks: a Strands Agents intervention handler (for the Agent's `interventions`) that runs
 * every tool call of the agent through the hooks, as one `execute_tool` call.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import { runnerCore } from '../../runner/registry.js';
import { warnVisibly } from '../../telemetry/warn-once.js';
import type { HookedSetSettings } from '../shared.js';
import { copyWith, readApprovalsMode, readLimits, requireOptionsObject, requireRunner } from '../shared.js';
import { StrandsApprovals } from './approvals.js';
import { runStrandsCall } from './call.js';
import type { StrandsBeforeToolCallEvent, StrandsInterventionAction, StrandsProceed, StrandsTool, StrandsToolContext, StrandsToolResultBlock } from './types.js';

/**
 * Options of {@link toolhooksHooks}.
 *
 * @example
 * ```ts
 * const interventions = [toolhooksHooks(runner, { state: { user }, approvals: 'framework' })];
 * ```
 */
export interface ToolhooksHooksOptions<S = unknown> {
  /** State passed to every hook. */
  state?: S;
  /** How many times an on_error Redirect may retry a tool. Default 1. */
  maxRetries?: number;
  /** How many times an after_tool Redirect may re-execute a tool. Default 1. */
  maxReexecutions?: number;
  /**
   * Who answers a before_tool Ask. `'runner'` (the default): the runner's `approver`, inside the
   * call. `'framework'`: a Strands interrupt — the agent stops with `stopReason: 'interrupt'`, and
   * the invocation that carries the app's `interruptResponse` (in this process or another, from a
   * snapshot) runs the call with the answer.
   */
  approvals?: 'runner' | 'framework';
  /** The handler's name among the Agent's `interventions` (Strands requires unique names). Default `'toolhooks'`. */
  name?: string;
}

/** The Strands line this adapter is written against. */
const SUPPORTED_STRANDS_RANGE = '@strands-agents/sdk >=1.19.0 <2';

const OPTIONS = ['state', 'maxRetries', 'maxReexecutions', 'approvals', 'name'] as const;

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
  readonly #settings: HookedSetSettings<unknown, StrandsApprovals>;

  /** @internal use {@link toolhooksHooks} */
  constructor(name: string, settings: HookedSetSettings<unknown, StrandsApprovals>) {
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
 * Builds a Strands Agents intervention handler (`@strands-agents/sdk` 1.19) for the Agent's
 * `interventions` that runs every tool call of the agent through the hooks, each as one
 * `execute_tool` call. (Strands' TypeScript Agent has no `hooks` option; an intervention handler is
 * what it takes without importing Strands' event classes.)
 * - Continue: the tool runs, inside the call (with Strands' tracing on, inside Strands' own `execute_tool` span).
 * - Skip: the stub is the tool's result (a string as a text block, anything else as a JSON block).
 * - Redirect: other arguments, or another tool of the agent (`newTool` names one in its tool registry).
 * - Abort: the model reads `This tool call was aborted by <hook>. Reason: <reason>` as an error
 *   result and the run goes on, as with Strands' own `deny` (a tool's error never fails a Strands run).
 * - Ask: the runner's `approver`, or (`approvals: 'framework'`) a Strands interrupt.
 * - Replace: the result is the replacement (the after_tool phase runs inside the call).
 *
 * @example
 * ```ts
 * import { Agent, FunctionTool } from '@strands-agents/sdk';
 * import { HookRunner, abort } from 'toolhooks';
 * import { toolhooksHooks } from 'toolhooks/strands';
 *
 * const hooks = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) }]);
 * const agent = new Agent({ model, tools: [shell], interventions: [toolhooksHooks(hooks)] });
 * ```
 */
export function toolhooksHooks<S = unknown>(runner: HookRunner<S>, options?: ToolhooksHooksOptions<S>): ToolhooksInterventions {
  const where = 'toolhooksHooks';
  const core = requireRunner<S>(runner, where);
  if (isRunner(options)) {
    throw new TypeError(`${where}(runner, options): options is a HookRunner; pass one runner, then the options object: toolhooksHooks(runner, { state })`);
  }
  const raw = requireOptionsObject(options, where, OPTIONS);
  const name = raw.name ?? 'toolhooks';
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: options.name must be a non-empty string, got ${typeName(name)}`);
  const approvals = readApprovalsMode(raw.approvals, where) === 'framework' ? new StrandsApprovals() : undefined;
  const settings: HookedSetSettings<S, StrandsApprovals> = { core, state: raw.state as S | undefined, limits: readLimits(raw, where), approvals };
  return new ToolhooksInterventions(name, settings as HookedSetSettings<unknown, StrandsApprovals>);
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

function isRunner(value: unknown): boolean {
  try {
    runnerCore(value, 'toolhooksHooks');
    return true;
  } catch {
    return false;
  }
}
