/**
 * terminalApprover(): an {@link Approver} that asks a person at the terminal, one request at a time, and
 * that stops when they want it to. What a person can do, and what each answers:
 * 1. `y` / `yes` approves; `n`, anything else or an empty line denies, the text after `n` as the reason.
 * 2. Ctrl-C denies the pending call (reason `interrupted`), every queued and later one at once, and then
 *    hands SIGINT back to the app: its own handlers run, and without one Node exits as on any Ctrl-C.
 * 3. Ctrl-D, or an input that ends (no terminal at all: CI, stdin closed), denies with `no terminal`,
 *    the pending call and every later one.
 * 4. No answer in `timeoutMs` denies with `no answer in time`; the runner's own `approvalTimeoutMs` ends
 *    the wait as it ends any approver's (outcome `expired`).
 */
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalRequest, ApprovalResponse, Approver } from '../hook.js';
import { duration, object, readOptions } from '../internal/validate.js';
import { escapeControlCharacters } from '../telemetry/capture/sanitize.js';
import type { TerminalApproverOptions } from './types.js';

/** Recorded as `toolhooks.approval.approver`. */
const APPROVER_REF = 'terminal';
const INTERRUPTED = 'interrupted';
const NO_TERMINAL = 'no terminal';
const NO_ANSWER = 'no answer in time';

/** How one question ended. */
type Ending =
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'stop'; readonly reason: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'expired'; readonly error: unknown };

/**
 * An approver that asks at the terminal: it shows the asking hook, the tool, the arguments as the
 * runner redacted them (secret-looking keys `[REDACTED]`, long strings cut) and the reason, with every
 * control character escaped, then reads `y` or `n [reason]`. Requests asked at the same time wait their
 * turn. Ctrl-C denies the pending call with reason `interrupted` and every later one at once, then
 * re-raises SIGINT for the app; Ctrl-D or a closed input denies with `no terminal`. The input is read
 * only while a question is on screen, so it never keeps the process alive.
 *
 * @throws TypeError naming an unknown option, or `input` / `output` that is not a stream object;
 *   RangeError (TypeError when not a number) when `timeoutMs` is not from 1 to 2^31 - 1.
 * @example
 * ```ts
 * import { HookRunner, ask } from 'toolhooks';
 * import { terminalApprover } from 'toolhooks/node';
 *
 * const hooks = new HookRunner({
 *   hooks: [{ name: 'mail-gate', tools: ['send_email'], beforeTool: () => ask('outgoing mail') }],
 *   approver: terminalApprover(),
 * });
 * ```
 */
export function terminalApprover(options: TerminalApproverOptions = {}): Approver {
  const given = readOptions(options, 'terminalApprover(options)', 'terminalApprover', { input: object, output: object, timeoutMs: duration(1) });
  const timeoutMs = given.timeoutMs;
  const input = (given.input as Readable | undefined) ?? process.stdin;
  const output = (given.output as Writable | undefined) ?? process.stdout;
  let stopped: string | undefined;
  let turn: Promise<unknown> = Promise.resolve();

  const askOne = async (request: ApprovalRequest): Promise<ApprovalResponse> => {
    if (stopped !== undefined) return deny(stopped);
    request.signal.throwIfAborted(); // its wait ended while an earlier request was on screen
    const shown = escapeControlCharacters;
    output.write(
      `\n? approval requested by ${shown(request.hook)} (${shown(request.id)})\n` +
        `  tool:   ${shown(request.toolName)}\n` +
        `  args:   ${shown(request.redactedArgs)}\n` +
        `  reason: ${shown(request.reason)}\n`,
    );
    const ending = await question(input, output, '  approve? [y/N, or "n reason"] ', request.signal, timeoutMs);
    if (ending.kind === 'expired' || ending.kind === 'timeout') {
      output.write('\n  (no answer in time: denied)\n');
      if (ending.kind === 'expired') throw ending.error;
      return deny(NO_ANSWER);
    }
    if (ending.kind === 'stop') {
      stopped = ending.reason;
      output.write(`\n  (${ending.reason}: denied, and every approval after it)\n`);
      // The signal is handled on a later turn of the event loop, after the runner has recorded this
      // denial (in microtasks): then the app's own SIGINT handling runs, or Node's default ends it.
      if (ending.reason === INTERRUPTED) process.kill(process.pid, 'SIGINT');
      return deny(ending.reason);
    }
    const answer = ending.text.trim();
    if (/^y(es)?$/i.test(answer)) return { approved: true, approver: APPROVER_REF };
    const reason = answer.replace(/^no?\b\s*/i, '');
    return reason === '' ? { approved: false, approver: APPROVER_REF } : deny(reason);
  };

  return (request) => {
    const mine = turn.then(() => askOne(request));
    turn = mine.catch(() => undefined);
    return mine;
  };
}

function deny(reason: string): ApprovalResponse {
  return { approved: false, reason, approver: APPROVER_REF };
}

/**
 * Shows `prompt` and waits for one line, Ctrl-C, the end of the input, the request's signal or the
 * timeout, whichever comes first; the interface is closed before it returns.
 */
function question(input: Readable, output: Writable, prompt: string, signal: AbortSignal, timeoutMs: number | undefined): Promise<Ending> {
  // An input that already ended would never say so again: nobody can answer.
  if (input.readableEnded || input.destroyed) return Promise.resolve({ kind: 'stop', reason: NO_TERMINAL });
  return new Promise((resolve) => {
    const tty = (output as { isTTY?: boolean }).isTTY === true && (input as { isTTY?: boolean }).isTTY === true;
    const lines: Interface = createInterface({ input, output, terminal: tty });
    let timer: NodeJS.Timeout | undefined;
    const finish = (ending: Ending): void => {
      lines.removeListener('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
      lines.close();
      resolve(ending);
    };
    const onClose = (): void => finish({ kind: 'stop', reason: NO_TERMINAL });
    const onAbort = (): void => finish({ kind: 'expired', error: signal.reason });
    lines.once('line', (text) => finish({ kind: 'line', text }));
    // Raw mode turns Ctrl-C into a key press: readline reports it here instead of signalling the process.
    lines.once('SIGINT', () => finish({ kind: 'stop', reason: INTERRUPTED }));
    lines.once('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    lines.setPrompt(prompt);
    lines.prompt();
  });
}
