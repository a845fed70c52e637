/**
 * The public types of toolhooks/mastra: the options of {@link withHooks} (extending the options every
 * adapter shares) and of {@link recordInvalidToolCalls}, and the Mastra shapes the adapter hands back,
 * written out structurally (Mastra is an optional peer: this entry imports neither its code nor its types).
 */
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions, model, tools: withHooks({ shell, search }, runner, { state: { userId } }) });
 * ```
 */
export interface WithHooksOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * Who answers a before_tool Ask. `'runner'` (the default): the runner's `approver`, inside the call.
   * `'framework'`: Mastra's own tool-call approval — the run suspends (`finishReason: 'suspended'`,
   * the `tool-call-approval` chunk) and `agent.approveToolCall` / `declineToolCall` (or
   * `approveToolCallGenerate` / `declineToolCallGenerate`) resume it; the agent needs a Mastra
   * instance with storage. Add {@link recordDeclinedCalls} to the agent's `outputProcessors` to
   * record declined calls as `denied`.
   */
  approvals?: 'runner' | 'framework';
}

/**
 * Options of {@link recordInvalidToolCalls}.
 *
 * @example
 * ```ts
 * const hooks = recordInvalidToolCalls(runner, { hooks: { afterToolCall: audit } });
 * ```
 */
export interface RecordInvalidToolCallsOptions {
  /** Your own agent tool hooks: they run as before (yours after the recording). */
  hooks?: MastraToolHooks;
}

/**
 * Mastra's agent tool hooks (the `hooks` option of `new Agent({ … })`), as far as this builds them.
 *
 * @example
 * ```ts
 * const hooks: MastraToolHooks = { afterToolCall: ({ toolName }) => console.log('ran', toolName) };
 * ```
 */
export interface MastraToolHooks {
  beforeToolCall?: (context: MastraToolCallContext) => void | MastraSkipResult | Promise<void | MastraSkipResult>;
  afterToolCall?: (context: MastraToolCallContext) => void | Promise<void>;
}

/**
 * What Mastra hands its `afterToolCall` hook, as far as this reads it.
 *
 * @example
 * ```ts
 * const log = ({ toolName, output }: MastraToolCallContext) => console.log(toolName, output);
 * ```
 */
export interface MastraToolCallContext {
  readonly toolName: string;
  readonly input: unknown;
  readonly context?: unknown;
  readonly output?: unknown;
  readonly error?: unknown;
}

/** What a Mastra `beforeToolCall` hook returns to skip the tool. */
export interface MastraSkipResult {
  readonly proceed: false;
  readonly output: unknown;
}

/**
 * A Mastra output processor (for `new Agent({ outputProcessors })`), as far as this builds one.
 *
 * @example
 * ```ts
 * const processor: MastraOutputProcessor = recordDeclinedCalls(tools);
 * ```
 */
export interface MastraOutputProcessor {
  readonly id: string;
  /** Receives every chunk of the run's output stream and passes it on unchanged. */
  processOutputStream<P>(args: { readonly part: P; readonly requestContext?: unknown }): Promise<P>;
}
