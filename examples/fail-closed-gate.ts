/**
 * A fail-closed security gate: when the policy service behind the hook is down or slow, shell calls
 * are refused instead of running unchecked. Run: npx tsx examples/fail-closed-gate.ts
 */
import type { ToolHook } from 'toolhooks';
import { HookAbortError, HookRunner, executeTool } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

/** Asks a (simulated) policy service; it hangs for the second call. */
let requests = 0;
function askPolicyService(cmd: string, signal: AbortSignal): Promise<boolean> {
  requests += 1;
  if (requests === 2) {
    // Never answers, but honours the signal toolhooks aborts when the hook times out.
    return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
  }
  return Promise.resolve(!cmd.includes('sudo'));
}

const gate: ToolHook = {
  name: 'policy-gate',
  failureMode: 'closed',
  timeoutMs: 200,
  async beforeTool(_tool, args, _state, ctx) {
    const allowed = await askPolicyService(String(args.cmd), ctx.signal);
    return allowed ? undefined : { kind: 'abort', reason: 'policy denies sudo' };
  },
};

const hooks = new HookRunner([gate]);
for (const cmd of ['ls', 'cat notes.txt', 'sudo reboot']) {
  try {
    const result = await executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: (args) => `ran ${String(args.cmd)}` });
    console.log(`${cmd}: ${String(result)}\n`);
  } catch (error) {
    if (!(error instanceof HookAbortError)) throw error;
    console.log(`${cmd}: refused (${error.reason})\n`);
  }
}
await telemetry.shutdown();
