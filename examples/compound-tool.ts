/**
 * CompoundTool: an agent step (here a fake LLM that writes SQL) then an executor step, with a hook
 * that rewrites the agent's output before it runs. Run: npx tsx examples/compound-tool.ts
 */
import { CompoundTool, HookRunner, redirect } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

const hooks = new HookRunner([
  {
    name: 'limit-rows',
    beforeTool: (_tool, args) =>
      String(args.agentOutput).includes('LIMIT') ? undefined : redirect({ newArgs: { agentOutput: `${String(args.agentOutput)} LIMIT 100` }, reason: 'unbounded query' }),
  },
]);

const state = { queries: [] as unknown[] };
const tool = new CompoundTool({
  agent: { name: 'sql_analyst', run: async (prompt: string) => `SELECT * FROM orders WHERE note LIKE '%${prompt}%'` },
  executor: (sql) => `ran: ${String(sql)}`,
  hooks,
  stateUpdater: (s: typeof state, result) => void s.queries.push(result),
});

const { agentOutput, result } = await tool.run(state, 'refund');
console.log(`agent wrote: ${String(agentOutput)}\nresult: ${String(result)}\nstate.queries: ${state.queries.length}\n`);
await telemetry.shutdown();
