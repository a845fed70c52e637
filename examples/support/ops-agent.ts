/**
 * The small ops agent the adapter examples (ai-agent, mastra-agent, openai-agents-agent, adk, strands)
 * all run, so that each of them shows only its framework's side: the hooks that govern the agent's
 * three tools (get_weather, run_shell, run_shell_sandboxed), and the tool calls its scripted model asks
 * for — one per decision the hooks make.
 */
import type { ToolHook } from 'toolhooks';
import { abort, redirect, skip } from 'toolhooks';

/**
 * The ops agent's hooks, in the order the examples run them: `no-destruction` aborts `rm -rf` on either
 * shell, `weather-cache` skips the Paris lookup and gives `cachedParis` as the tool's result (in the
 * shape the framework's tools return), and `sandbox-network` redirects a network command (curl, wget)
 * from run_shell to run_shell_sandboxed.
 *
 * @example
 * const runner = new HookRunner(opsHooks({ city: 'Paris', forecast: 'cloudy', cached: true }));
 */
export function opsHooks(cachedParis: unknown): ToolHook[] {
  const policy: ToolHook = {
    name: 'no-destruction',
    tools: /^run_shell/,
    beforeTool: (_tool, args) => (/\brm\s+-rf\b/.test(String(args.cmd)) ? abort('destructive command refused') : undefined),
  };
  const cache: ToolHook = {
    name: 'weather-cache',
    tools: ['get_weather'],
    beforeTool: (_tool, args) => (args.city === 'Paris' ? skip('cached', cachedParis) : undefined),
  };
  const sandbox: ToolHook = {
    name: 'sandbox-network',
    tools: ['run_shell'],
    beforeTool: (_tool, args) => (/\b(curl|wget)\b/.test(String(args.cmd)) ? redirect({ newTool: 'run_shell_sandboxed', reason: 'network access' }) : undefined),
  };
  return [policy, cache, sandbox];
}

/** A tool call a scripted model asks for: the call's id, the tool's name and its arguments. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/**
 * The calls the scripted model makes, one for each thing the hooks do: call_1 is skipped (cached),
 * call_2 runs, call_3 is redirected to the sandbox, call_4 is aborted.
 *
 * @example
 * const parts = OPS_CALLS.map(({ id, name, args }) => ({ functionCall: { id, name, args } }));
 */
export const OPS_CALLS: readonly ScriptedCall[] = [
  { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } },
  { id: 'call_2', name: 'get_weather', args: { city: 'Lisbon' } },
  { id: 'call_3', name: 'run_shell', args: { cmd: 'curl https://example.com' } },
  { id: 'call_4', name: 'run_shell', args: { cmd: 'rm -rf /' } },
];
