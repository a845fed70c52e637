/**
 * runPlan: a three-step plan; a hook aborts the deploy step and the plan goes on.
 * Run: npx tsx examples/run-plan.ts
 */
import { HookRunner, abort, runPlan } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

const hooks = new HookRunner([
  { name: 'change-freeze', tools: (tool) => tool === 'meta:deploy', beforeTool: () => abort('change freeze until Monday') },
]);

const results = await runPlan(
  [
    { name: 'build', prompt: 'build the release' },
    { name: 'deploy', prompt: 'deploy to production' },
    { name: 'announce', prompt: 'post the changelog' },
  ],
  { hooks, runSubtask: async (subtask) => `${subtask.name}: done` },
);
for (const r of results) console.log(`${r.name.padEnd(9)} ${r.success ? 'ok    ' : 'FAILED'} ${r.success ? String(r.output) : String(r.error)}`);
console.log();
await telemetry.shutdown();
