/**
 * Ask a person on the terminal before risky tool calls run — `npx tsx examples/approval.ts`.
 *
 * A gate hook asks for approval of `send_email` and `delete_file`; {@link terminalApprover} shows
 * each request (tool, arguments with secrets redacted the way toolhooks' capture redacts them, the
 * reason) and waits for `y` or `n [reason]`. Nobody answering within APPROVAL_TIMEOUT_MS (default
 * 30 s) denies the call, as does any other failure: the gate fails closed.
 *
 * The scripted agent makes three gated calls and one ungated one, then prints what each returned.
 */
import { createInterface } from 'node:readline/promises';
import type { Interface } from 'node:readline/promises';
import type { Approver, ApprovalRequest, ApprovalResponse, ToolHook } from 'toolhooks';
import { HookRunner, ask, executeTool } from 'toolhooks';

/**
 * Tool names, arguments and reasons can come from a model: printed raw, an ESC or BEL could retitle the
 * terminal or move the cursor, and a bidi override could disguise what is being approved. Every control,
 * line-separator and bidi character is shown as a visible \uXXXX escape instead.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
function escapeControlCharacters(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Options of {@link terminalApprover}. */
interface TerminalApproverOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** The opaque reference recorded as `toolhooks.approval.approver`. Default `terminal`. */
  readonly approverRef?: string;
}

/**
 * An approver that asks on a terminal, one request at a time (concurrent requests wait their turn;
 * a request whose wait ends while it queues is never shown). It answers only what was typed: `y` or
 * `yes` approves, anything else denies, with the text after `n` as the reason.
 */
function terminalApprover(options: TerminalApproverOptions): Approver & { close(): void } {
  const lines: Interface = createInterface({ input: options.input, output: options.output, terminal: true });
  const ref = options.approverRef ?? 'terminal';
  let turn: Promise<unknown> = Promise.resolve();
  const approver = (request: ApprovalRequest): Promise<ApprovalResponse> => {
    const mine = turn.then(() => askOne(lines, options.output, request, ref));
    turn = mine.catch(() => undefined);
    return mine;
  };
  return Object.assign(approver, { close: () => lines.close() });
}

async function askOne(lines: Interface, output: NodeJS.WritableStream, request: ApprovalRequest, approverRef: string): Promise<ApprovalResponse> {
  request.signal.throwIfAborted(); // expired while an earlier request was on screen
  const shown = (text: string): string => escapeControlCharacters(text);
  output.write(
    `\n? approval requested by ${shown(request.hook)} (${shown(request.id)})\n` +
      `  tool:   ${shown(request.toolName)}\n` +
      `  args:   ${shown(request.redactedArgs)}\n` +
      `  reason: ${shown(request.reason)}\n`,
  );
  let answer: string;
  try {
    answer = (await lines.question('  approve? [y/N, or "n reason"] ', { signal: request.signal })).trim();
  } catch (error) {
    output.write('\n  (no answer in time: denied)\n');
    throw error;
  }
  if (/^y(es)?$/i.test(answer)) return { approved: true, approver: approverRef };
  const reason = answer.replace(/^no?\b\s*/i, '');
  return reason === '' ? { approved: false, approver: approverRef } : { approved: false, reason, approver: approverRef };
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
  const approver = terminalApprover({ input: process.stdin, output: process.stdout });
  const hooks = new HookRunner({ hooks: [gate], approver, approvalTimeoutMs: timeoutMs });
  console.log(`approvals expire after ${timeoutMs / 1000} s`);
  for (const step of SCRIPT) {
    const execute = tools[step.tool];
    if (execute === undefined) throw new Error(`unknown tool ${step.tool}`);
    const result = await executeTool({ hooks, toolName: step.tool, args: step.args, execute });
    console.log(`  → ${escapeControlCharacters(step.tool)}: ${escapeControlCharacters(String(result))}`);
  }
  approver.close();
  console.log('done');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
