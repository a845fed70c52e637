/**
 * npm run demo — a scripted agent makes 20 tool calls through toolhooks and prints each call's trace
 * tree, then a summary. Hooks: a fail-closed policy gate (aborts `rm -rf`, sends curl/wget to a
 * sandbox), a search cache (skips), a retry hook (recovers a flaky API) and a broken audit hook
 * whose errors are swallowed.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HookAbortError, HookRunner, executeTool } from '../src/index.js';
import { TreeSpanExporter } from '../src/node/tree-exporter.js';
import { SCRIPT, SummaryHook, brokenHook, createCacheHook, createTools, policyHook, retryHook } from './agent-tools.js';

async function main(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new TreeSpanExporter())] });
  trace.setGlobalTracerProvider(provider);

  const summary = new SummaryHook();
  const hooks = new HookRunner({ hooks: [policyHook, createCacheHook(), retryHook, brokenHook, summary], timeoutMs: 2_000 });
  const tools = createTools();

  for (const [i, step] of SCRIPT.entries()) {
    const execute = tools[step.tool];
    if (execute === undefined) throw new Error(`the script names an unknown tool: ${step.tool}`);
    try {
      await executeTool({ hooks, toolName: step.tool, args: step.args, execute, tools, callId: `call_${i + 1}` });
    } catch (error) {
      if (!(error instanceof HookAbortError)) throw error;
    }
  }
  await provider.shutdown();

  const count = (outcome: string): number => summary.outcomes.get(outcome) ?? 0;
  const rate = summary.calls === 0 ? 0 : count('aborted') / summary.calls;
  console.log('Summary');
  console.log(`  tool calls   ${summary.calls}`);
  for (const outcome of ['completed', 'skipped', 'recovered', 'aborted', 'failed']) {
    console.log(`  ${outcome.padEnd(12)} ${count(outcome)}`);
  }
  console.log(`  abort rate   ${(rate * 100).toFixed(1)}%`);
  console.log(`  hook errors  ${summary.hookErrors} (swallowed; the calls went on)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
