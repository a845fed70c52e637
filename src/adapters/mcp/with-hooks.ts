/**
 * withMcpHooks: an MCP client whose `callTool` runs through executeTool, so hook decisions take
 * effect on MCP tool calls and every call gets its `execute_tool mcp__<server>__<tool>` span.
 */
import { quoteValue, typeName } from '../../internal/describe.js';
import { rejectUnknownOptions } from '../../internal/validate.js';
import { isPlainObject } from '../../decisions.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { RunnerCore } from '../../runner/core.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { CallLimits } from '../settings.js';
import { readLimits, requireRunner } from '../settings.js';
import { toText } from '../json-text.js';
import type { McpClientLike, WithMcpHooksOptions } from './types.js';
import { McpToolError } from './tool-error.js';
import { callAttributes, isV2Client, outerToolSpan, withTraceContext } from './telemetry.js';
import { trackCallSpans } from '../../flows/outer-call.js';

type AnyFunction = (...args: unknown[]) => unknown;

const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/**
 * Wraps an MCP client (`Client` from `@modelcontextprotocol/sdk`) so that `callTool` runs through
 * {@link executeTool} with tool name `mcp__<server>__<tool>` and args `params.arguments ?? {}`:
 * - before_tool Skip: no request is sent; the stub is the call's result — returned as it is when it
 *   is already a CallToolResult (an object with a `content` array), else as
 *   `{ content: [{ type: 'text', text }] }` with the stub's text (JSON for non-strings) and, for a
 *   plain-object stub, `structuredContent` = the stub;
 * - Redirect: `newArgs` are merged into the arguments sent; `newTool` calls another tool of the same
 *   server, named `mcp__<server>__<other>` or just `<other>` (a tool of another server is refused as
 *   an invalid redirect target, and the original call proceeds);
 * - a result with `isError: true` is a tool failure: onError hooks get a {@link McpToolError}
 *   (Skip returns its stub, Redirect retries, Abort rejects); when they let it stand, `callTool`
 *   returns that result as MCP callers expect, and the call is recorded as `failed` with
 *   `error.type` `tool_error`; a result that is not an object is a failure too (a TypeError);
 * - a thrown error (protocol error, timeout, cancellation) reaches onError too, and is rethrown
 *   when no hook recovers it;
 * - Abort rejects `callTool` with {@link HookAbortError}.
 *
 * Every other property and method of the client passes through, bound to the client itself, and
 * the result schema and the request options (`signal`, `onprogress`, `timeout`) reach the client
 * unchanged; the options' `signal` is also the hooks' `ctx.signal`. `params._meta` keeps the
 * caller's fields and gains the W3C trace context (`traceparent`, `tracestate`) of the call, when
 * a propagator is registered and the caller set neither. The `execute_tool` span carries
 * `mcp.method.name` (`tools/call`), `mcp.protocol.version` (the negotiated revision),
 * `network.transport` (`pipe` for stdio, `tcp` for HTTP), `mcp.session.id` only where the protocol
 * has sessions (a 2025-era connection over Streamable HTTP; the 2026-07-28 revision has none), and
 * `gen_ai.tool.description` when a `listTools` result described the tool. v1 and v2 clients are
 * told apart when wrapping (v2 has `getProtocolEra`), so the request options are read from the
 * right argument.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { HookRunner, abort } from 'toolhooks';
 * import { withMcpHooks } from 'toolhooks/mcp';
 *
 * const runner = new HookRunner([{ name: 'no-writes', tools: /^mcp__fs__write/, beforeTool: () => abort('read-only session') }]);
 * const fs = withMcpHooks(client, runner, { server: 'fs' });
 * const result = await fs.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
 * ```
 */
export function withMcpHooks<C extends McpClientLike, S = unknown>(
  client: C,
  runner: HookRunner<S>,
  options: WithMcpHooksOptions<S>,
): C {
  const where = 'withMcpHooks';
  if (client === null || (typeof client !== 'object' && typeof client !== 'function') || typeof client.callTool !== 'function') {
    throw new TypeError(
      `${where}: client must be an MCP Client (an object with a callTool method: @modelcontextprotocol/sdk ^1 or @modelcontextprotocol/client ^2), got ${
        client === null || typeof client !== 'object' ? typeName(client) : 'an object without callTool'
      }`,
    );
  }
  const core = requireRunner<S>(runner, where);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object with the server's name ({ server: 'fs' }), got ${typeName(options)}`);
  }
  rejectUnknownOptions(options, ['server', 'state', 'tools', 'maxRetries', 'maxReexecutions', 'span'], `${where}: options`);
  const spanMode: unknown = options.span;
  if (spanMode !== undefined && spanMode !== 'own' && spanMode !== 'outer') {
    throw new TypeError(`${where}: options.span must be 'own' or 'outer', got ${quoteValue(spanMode)}`);
  }
  const server: unknown = options.server;
  if (typeof server !== 'string' || !SERVER_NAME.test(server)) {
    throw new TypeError(
      `${where}: options.server must be the server's name in mcp__<server>__<tool> (letters, digits, '-' and single '_'), got ${
        quoteValue(server)
      }`,
    );
  }
  const known = new Map<string, string | undefined>();
  if (options.tools !== undefined) {
    if (!Array.isArray(options.tools) || !options.tools.every((name) => typeof name === 'string' && name.length > 0)) {
      throw new TypeError(`${where}: options.tools must be an array of tool names`);
    }
    for (const name of options.tools) known.set(name, undefined);
  }
  const context: CallContext<S> = {
    client,
    core,
    server,
    prefix: `mcp__${server}__`,
    known,
    state: options.state,
    limits: readLimits(options, where),
    v2: isV2Client(client),
    outer: spanMode === 'outer',
  };
  if (context.outer) trackCallSpans();

  const callTool = (params: unknown, ...rest: unknown[]): Promise<unknown> => hookedCallTool(context, params, rest);
  const listTools = async (...args: unknown[]): Promise<unknown> => {
    const result = await (Reflect.get(client, 'listTools', client) as AnyFunction).apply(client, args);
    learnTools(known, result);
    return result;
  };
  const bound = new WeakMap<AnyFunction, AnyFunction>();
  return new Proxy(client, {
    get(target, property) {
      if (property === 'callTool') return callTool;
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'listTools' && typeof value === 'function') return listTools;
      // Methods run on the client itself (its private state stays reachable); own properties and
      // the constructor are returned as they are so that identities hold.
      if (typeof value !== 'function' || property === 'constructor' || Object.prototype.hasOwnProperty.call(target, property)) {
        return value;
      }
      let method = bound.get(value as AnyFunction);
      if (method === undefined) {
        method = (value as AnyFunction).bind(target);
        bound.set(value as AnyFunction, method);
      }
      return method;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value, target);
    },
  });
}

interface CallContext<S> {
  readonly client: McpClientLike;
  readonly core: RunnerCore<S>;
  readonly server: string;
  readonly prefix: string;
  /** Server tool names a Redirect may name, with the description `listTools` gave (if any). */
  readonly known: Map<string, string | undefined>;
  readonly state: S | undefined;
  readonly limits: CallLimits;
  /** Whether the client is the v2 SDK's (its request options come first). */
  readonly v2: boolean;
  /** Whether a call inside another `execute_tool` span records on it (`span: 'outer'`). */
  readonly outer: boolean;
}

async function hookedCallTool<S>(context: CallContext<S>, params: unknown, rest: unknown[]): Promise<unknown> {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new TypeError(`callTool: params must be an object ({ name, arguments }), got ${typeName(params)}`);
  }
  const { name, arguments: given, _meta: meta } = params as { name?: unknown; arguments?: unknown; _meta?: unknown };
  if (typeof name !== 'string' || name.length === 0) {
    throw new TypeError(`callTool: params.name must be a non-empty string, got ${typeName(name)}`);
  }
  if (given !== undefined && given !== null && !isPlainObject(given)) {
    throw new TypeError(`callTool: params.arguments must be an object of arguments, got ${typeName(given)}`);
  }
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) {
    throw new TypeError(`callTool: params._meta must be an object of request metadata, got ${typeName(meta)}`);
  }
  const args: ToolArgs = given ?? {};
  // v2: callTool(params, options); v1: callTool(params, resultSchema, options).
  const requestOptions = rest[context.v2 ? 0 : 1];
  const signal =
    requestOptions !== null && typeof requestOptions === 'object' && (requestOptions as { signal?: unknown }).signal instanceof AbortSignal
      ? (requestOptions as { signal: AbortSignal }).signal
      : undefined;

  // What the server sent, told apart from hooks' stubs, which need shaping into a CallToolResult.
  const serverResults = new WeakSet<object>();
  const serverErrors = new WeakSet<McpToolError>();
  const executorFor =
    (toolName: string): Executor =>
    async (callArgs) => {
      const request: Record<string, unknown> = { ...(params as Record<string, unknown>), name: toolName };
      if (given === undefined && Object.keys(callArgs).length === 0) delete request.arguments;
      else request.arguments = callArgs;
      // Runs inside the call's context: the server's spans join the agent's trace.
      const traced = withTraceContext(meta as Record<string, unknown> | undefined);
      if (traced !== undefined) request._meta = traced;
      const callTool = Reflect.get(context.client, 'callTool', context.client) as AnyFunction;
      const result = await callTool.call(context.client, request, ...rest);
      if (result === null || typeof result !== 'object' || Array.isArray(result)) {
        throw new TypeError(
          `MCP server "${context.server}" answered tools/call "${toolName}" with ${typeName(result)}; a tool result must be an object ({ content: [...] })`,
        );
      }
      if ((result as { isError?: unknown }).isError === true) {
        const error = new McpToolError(toolName, result as Record<string, unknown>);
        serverErrors.add(error);
        throw error;
      }
      serverResults.add(result);
      return result;
    };
  const execute = executorFor(name);
  // A Redirect's target, by plain or prefixed name: the tool itself or one the wrapper knows.
  const serverNameOf = (target: string): string | undefined => {
    if (target === name || context.known.has(target)) return target;
    if (!target.startsWith(context.prefix)) return undefined;
    const plain = target.slice(context.prefix.length);
    return plain === name || context.known.has(plain) ? plain : undefined;
  };
  const outer = context.outer ? outerToolSpan() : undefined;
  try {
    const value = await runToolCall<S>({
      core: context.core,
      toolName: context.prefix + name,
      args,
      state: context.state as S,
      execute,
      redirectExecutor: (target) => {
        const serverName = serverNameOf(target);
        return serverName === undefined ? undefined : serverName === name ? execute : executorFor(serverName);
      },
      isRedirectTarget: (target) => serverNameOf(target) !== undefined,
      toolDescription: context.known.get(name),
      attributes: callAttributes(context.client),
      ...(outer === undefined ? {} : { span: outer, outer: true }),
      signal,
      ...context.limits,
    });
    return value !== null && typeof value === 'object' && serverResults.has(value) ? value : toCallToolResult(value);
  } catch (error) {
    // onError let an isError result stand: MCP reports tool failures as results, so return it.
    if (error instanceof McpToolError && serverErrors.has(error)) return error.result;
    throw error;
  }
}

/** A hook's stub as an MCP CallToolResult. */
function toCallToolResult(stub: unknown): unknown {
  if (stub !== null && typeof stub === 'object' && Array.isArray((stub as { content?: unknown }).content)) return stub;
  const result: Record<string, unknown> = { content: [{ type: 'text', text: toText(stub) }] };
  if (isPlainObject(stub)) result.structuredContent = stub;
  return result;
}

/** Remembers the tools (and their descriptions) a `listTools` result names. */
function learnTools(known: Map<string, string | undefined>, result: unknown): void {
  const tools = result !== null && typeof result === 'object' ? (result as { tools?: unknown }).tools : undefined;
  if (!Array.isArray(tools)) return;
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') continue;
    const { name, description } = tool as { name?: unknown; description?: unknown };
    if (typeof name !== 'string' || name.length === 0) continue;
    if (typeof description === 'string') known.set(name, description);
    else if (!known.has(name)) known.set(name, undefined);
  }
}
