/**
 * The small agent the demo and examples share: a few tools, the hooks that govern them, and a
 * scripted list of tool calls an LLM might make. No network, no model: every tool is local.
 */
import type { Approver, Executor, ToolHook, ToolHookEvent } from 'toolhooks';
import { abort, ask, redirect, skip } from 'toolhooks';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's tools, by name. */
export function createTools(): Record<string, Executor> {
  let flakyCalls = 0;
  return {
    shell: async (args) => {
      await sleep(3);
      return `$ ${String(args.cmd)}\n(ok)`;
    },
    sandbox_shell: async (args) => {
      await sleep(5);
      return `[sandbox] $ ${String(args.cmd)}\n(ok, no network)`;
    },
    web_search: async (args) => {
      await sleep(8);
      return [`result for "${String(args.query)}"`];
    },
    read_file: async (args) => {
      await sleep(1);
      return `contents of ${String(args.path)}`;
    },
    send_email: async (args) => {
      await sleep(2);
      return `sent "${String(args.subject)}" to ${String(args.to)}`;
    },
    flaky_api: async (args) => {
      await sleep(2);
      flakyCalls += 1;
      // Every other first attempt fails, the way a rate-limited API does.
      if (args.retry !== true && flakyCalls % 2 === 1) throw new Error('503 Service Unavailable');
      return { status: 200, attempt: args.retry === true ? 2 : 1 };
    },
  };
}

/** A security gate: fail-closed, so if it ever breaks, shell calls stop instead of running unchecked. */
export const policyHook: ToolHook = {
  name: 'policy',
  tools: ['shell'],
  failureMode: 'closed',
  beforeTool(_tool, args) {
    const cmd = String(args.cmd);
    if (/\brm\s+-rf\b/.test(cmd)) return abort(`destructive command refused: ${cmd}`);
    if (/\b(curl|wget)\b/.test(cmd)) return redirect({ newTool: 'sandbox_shell', reason: 'network access runs in the sandbox' });
    return undefined;
  },
};

/** A cache: a repeated search is answered without running the tool. */
export function createCacheHook(): ToolHook {
  const seen = new Map<string, unknown>();
  return {
    name: 'search-cache',
    tools: ['web_search'],
    beforeTool(_tool, args) {
      const key = String(args.query);
      return seen.has(key) ? skip('cache hit', seen.get(key)) : undefined;
    },
    afterTool(_tool, args, result) {
      seen.set(String(args.query), result);
    },
  };
}

/** Retries a failed API call once with `retry: true`. */
export const retryHook: ToolHook = {
  name: 'retry-503',
  tools: ['flaky_api'],
  onError(_tool, _args, error) {
    return String(error).includes('503') ? redirect({ newArgs: { retry: true }, reason: 'transient 503' }) : undefined;
  },
};

/** A hook with a bug: it throws on every read_file. toolhooks records it and the call goes on. */
export const brokenHook: ToolHook = {
  name: 'audit-log',
  tools: ['read_file'],
  beforeTool(_tool, args) {
    const path = args.path as string | undefined;
    if (path?.startsWith('/etc')) throw new TypeError("Cannot read properties of undefined (reading 'user')");
    return undefined;
  },
};

/**
 * The next version of the policy, rolled out in audit mode: it also refuses `git push` and reads under
 * /etc. Its decisions are recorded ("would abort") and never take effect.
 */
export const policyV2Hook: ToolHook = {
  name: 'policy-v2',
  mode: 'audit',
  tools: ['shell', 'read_file'],
  beforeTool(_tool, args) {
    if (typeof args.path === 'string' && args.path.startsWith('/etc/')) return abort(`reads under /etc are refused: ${args.path}`);
    if (/\brm\s+-rf\b|\bgit\s+push\b/.test(String(args.cmd))) return abort(`refused by policy v2: ${String(args.cmd)}`);
    return undefined;
  },
};

/** A gate that needs a person: every outgoing mail waits for approval (denied when nobody answers). */
export const mailGateHook: ToolHook = {
  name: 'mail-gate',
  tools: ['send_email'],
  beforeTool: (_tool, args) => ask(`outgoing mail to ${String(args.to)}`),
};

/**
 * The demo's stand-in for a person on call: approves mail to the team and refuses the rest. A real
 * one asks someone (examples/approval.ts asks on the terminal).
 */
export const onCallApprover: Approver = (request) =>
  String(request.args.to).endsWith('@team.example.com')
    ? { approved: true, approver: 'on-call' }
    : { approved: false, reason: 'mail outside the team needs a ticket', approver: 'on-call' };

/** Counts outcomes through the observer channel, for the demo's summary. */
export class SummaryHook implements ToolHook {
  readonly name = 'summary';
  readonly outcomes = new Map<string, number>();
  hookErrors = 0;
  /** What audit hooks would have aborted. */
  wouldAbort = 0;
  onEvent(event: ToolHookEvent): void {
    if (event.type === 'tool') {
      this.outcomes.set(event.outcome, (this.outcomes.get(event.outcome) ?? 0) + 1);
      return;
    }
    if (event.type !== 'phase') return;
    this.hookErrors += event.errors.length;
    this.wouldAbort += event.hooks.filter((record) => record.mode === 'audit' && record.decision === 'abort').length;
  }
  get calls(): number {
    return [...this.outcomes.values()].reduce((a, b) => a + b, 0);
  }
}

/** The tool calls the scripted agent makes, in order (20 of them). */
export const SCRIPT: readonly { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'shell', args: { cmd: 'ls -la' } },
  { tool: 'web_search', args: { query: 'opentelemetry genai semconv' } },
  { tool: 'shell', args: { cmd: 'curl https://example.com/install.sh' } },
  { tool: 'read_file', args: { path: './README.md' } },
  { tool: 'flaky_api', args: { id: 1 } },
  { tool: 'shell', args: { cmd: 'rm -rf /' } },
  { tool: 'web_search', args: { query: 'opentelemetry genai semconv' } },
  { tool: 'read_file', args: { path: '/etc/hosts' } },
  { tool: 'flaky_api', args: { id: 2 } },
  { tool: 'shell', args: { cmd: 'git status' } },
  { tool: 'web_search', args: { query: 'jaeger v2' } },
  { tool: 'shell', args: { cmd: 'wget https://example.com/data.csv' } },
  { tool: 'flaky_api', args: { id: 3 } },
  { tool: 'shell', args: { cmd: 'rm -rf ~/.ssh' } },
  { tool: 'read_file', args: { path: '/etc/passwd' } },
  { tool: 'web_search', args: { query: 'jaeger v2' } },
  { tool: 'shell', args: { cmd: 'npm test' } },
  { tool: 'flaky_api', args: { id: 4 } },
  { tool: 'shell', args: { cmd: 'sudo rm -rf /var/lib' } },
  { tool: 'read_file', args: { path: './package.json' } },
];

/** Two more calls the demo makes, through the mail gate: the first is approved, the second denied. */
export const MAIL_SCRIPT: readonly { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'send_email', args: { to: 'ops@team.example.com', subject: 'nightly report' } },
  { tool: 'send_email', args: { to: 'everyone@example.com', subject: 'hello world' } },
];
