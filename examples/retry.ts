/**
 * runWithRetry: an operation driven by a prompt note, retried with the previous error appended to
 * the note, and a hook that aborts when the error is not worth retrying. Run: npx tsx examples/retry.ts
 */
import { HookRunner, abort, runWithRetry } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

const hooks = new HookRunner([
  {
    name: 'give-up-on-auth',
    onError: (_tool, _args, error) => (String(error).includes('401') ? abort('credentials rejected: not retrying') : undefined),
  },
]);

// A "model" that writes SQL: the first draft uses a column that does not exist.
let drafts = 0;
const writeSql = async (note: string): Promise<string> => {
  drafts += 1;
  if (!note.includes('PREVIOUS ATTEMPT FAILED')) throw new Error('column "revenue" does not exist');
  return `SELECT sum(amount) FROM orders -- draft ${drafts}`;
};

const sql = await runWithRetry(writeSql, { toolName: 'sql_writer', args: { table: 'orders' }, hooks, note: 'monthly revenue', maxAttempts: 3 });
console.log(`sql: ${sql}\n`);

const exhausted = await runWithRetry(
  async () => {
    throw new Error('timeout');
  },
  { toolName: 'sql_writer', args: {}, hooks, note: 'x', maxAttempts: 2 },
);
console.log(`exhausted: ${exhausted}\n`);
await telemetry.shutdown();
