/**
 * Ask a person on the terminal before risky tool calls run — `npx tsx examples/approval.ts`.
 *
 * A gate hook asks for approval of `send_email` and `delete_file`; `terminalApprover()` from
 * `toolhooks/node` shows each request (tool, arguments with secrets redacted the way toolhooks' capture
 * redacts them, the reason) and waits for `y` or `n [reason]`. Nobody answering within
 * APPROVAL_TIMEOUT_MS (default 30 s) denies the call, as does any other failure: the gate fails closed.
 * Ctrl-C denies the pending call (`interrupted`) and every later one, and stops the program as Ctrl-C
 * does; Ctrl-D, or no terminal at all, denies with `no terminal`.
 *
 * The scripted agent makes three gated calls and one ungated one, then prints what each returned.
 */
import { setTimeout as modelTurn } from 'node:timers/promises';
import type { ToolHook } from 'toolhooks';
import { HookRunner, ask, executeTool } from 'toolhooks';
import { terminalApprover } from 'toolhooks/node';

/**
 * Tool names, arguments and results can come from a model: printed raw, an ESC or BEL could retitle the
 * terminal or move the cursor. Every control, line-separator and bidi character is shown escaped.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
function escapeControlCharacters(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The gate: outgoing mail and deletions need a person. */
const gate: ToolHook = {
  name: 'risky-tools',
  tools: ['send_email', 'delete_file'],
  beforeTool: (tool) => ask(tool === 'send_email' ? 'outgoing mail leaves the company' : 'deletion cannot be undone'),
};

const tools: Record<string, (args: Record<string, unknown>) => string> = {
  send_email: (args) => `sent "${String(args.subject)}" to ${String(args.to)}`,
  delete_file: (args) => `deleted ${String(args.path)}`,
  read_file: (args) => `contents of ${String(args.path)}`,
};

const SCRIPT: readonly { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'send_email', args: { to: 'ops@example.com', subject: 'weekly report', smtpPassword: 'hunter2' } },
  { tool: 'delete_file', args: { path: '/srv/backups/2026-11.tar' } },
  { tool: 'read_file', args: { path: 'README.md' } },
  { tool: 'send_email', args: { to: 'all@example.com', subject: 'hello everyone', apiKey: 'sk-live-123' } },
];

async function main(): Promise<void> {
  const timeoutMs = Number(process.env.APPROVAL_TIMEOUT_MS ?? 30_000);
  const approver = terminalApprover();
  const hooks = new HookRunner({ hooks: [gate], approver, approvalTimeoutMs: timeoutMs });
  console.log(`approvals expire after ${timeoutMs / 1000} s`);
  for (const step of SCRIPT) {
    await modelTurn(50); // the model choosing its next call
    const execute = tools[step.tool];
    if (execute === undefined) throw new Error(`unknown tool ${step.tool}`);
    const result = await executeTool({ hooks, toolName: step.tool, args: step.args, execute });
    console.log(`  → ${escapeControlCharacters(step.tool)}: ${escapeControlCharacters(String(result))}`);
  }
  console.log('done');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
