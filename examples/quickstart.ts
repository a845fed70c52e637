/**
 * Quickstart: one hook, three tool calls through executeTool — one that runs, one redirected to a
 * sandbox tool, one aborted. Run: npx tsx examples/quickstart.ts
 */
import type { ToolHook } from 'toolhooks';
import { HookAbortError, HookRunner, abort, executeTool, redirect } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

const policy: ToolHook = {
  name: 'policy',
  tools: ['shell'],
  beforeTool(_tool, args) {
    const cmd = String(args.cmd);
    if (cmd.includes('rm -rf')) return abort('destructive command');
    if (cmd.startsWith('curl')) return redirect({ newTool: 'sandbox_shell', reason: 'network goes through the sandbox' });
    return undefined;
  },
};

const hooks = new HookRunner([policy]);
const tools = {
  shell: (args: Record<string, unknown>) => `host ran: ${String(args.cmd)}`,
  sandbox_shell: (args: Record<string, unknown>) => `sandbox ran: ${String(args.cmd)}`,
};

for (const cmd of ['ls', 'curl https://example.com', 'rm -rf /']) {
  try {
    const result = await executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: tools.shell, tools });
    console.log(`result: ${String(result)}\n`);
  } catch (error) {
    if (!(error instanceof HookAbortError)) throw error;
    console.log(`aborted by ${error.sourceHook}: ${error.reason}\n`);
  }
}
await telemetry.shutdown();
