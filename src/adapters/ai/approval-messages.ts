/**
 * Reading the AI SDK's approval parts out of a conversation (`messages`, as the SDK hands them to
 * `toolApproval`, to a tool's `execute` and to `onStart`): the `tool-approval-request` an assistant
 * message carries, and the app's `tool-approval-response` in the last tool message. Read as plain
 * data, so messages that went through `JSON.parse(JSON.stringify(…))` (a stored chat) read the same.
 * @internal
 */

/** The app's answer to one approval request, with the call it is for. */
interface ApprovalAnswerPart {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason: string | undefined;
}

/** A denied call the SDK will answer with `execution-denied`: the answer, and the tool call it denies. */
interface DeniedCall extends ApprovalAnswerPart {
  readonly toolName: string;
  readonly input: unknown;
}

interface Part {
  readonly type?: unknown;
  readonly approvalId?: unknown;
  readonly toolCallId?: unknown;
  readonly toolName?: unknown;
  readonly input?: unknown;
  readonly approved?: unknown;
  readonly reason?: unknown;
}

/**
 * The app's answer for `toolCallId`, as the SDK collects it: a `tool-approval-response` in the last
 * message (a tool message) whose approval request named this call, and no tool result for the call
 * in that message yet. Undefined when there is none.
 */
export function answerFor(messages: unknown, toolCallId: string): ApprovalAnswerPart | undefined {
  return answersIn(messages).find((answer) => answer.toolCallId === toolCallId);
}

/** Every denied call the SDK will answer with `execution-denied` in the run that starts with `messages`. */
export function deniedCalls(messages: unknown): DeniedCall[] {
  const denied: DeniedCall[] = [];
  const answers = answersIn(messages);
  if (answers.length === 0) return denied;
  const calls = new Map<string, Part>();
  for (const part of partsOf(messages, 'assistant')) if (part.type === 'tool-call' && typeof part.toolCallId === 'string') calls.set(part.toolCallId, part);
  for (const answer of answers) {
    const call = calls.get(answer.toolCallId);
    if (answer.approved || call === undefined || typeof call.toolName !== 'string') continue;
    denied.push({ ...answer, toolName: call.toolName, input: call.input });
  }
  return denied;
}

function answersIn(messages: unknown): ApprovalAnswerPart[] {
  if (!Array.isArray(messages)) return [];
  const last: unknown = messages[messages.length - 1];
  if (!isMessage(last) || last.role !== 'tool' || !Array.isArray(last.content)) return [];
  const lastParts = (last.content as unknown[]).filter(isPart);
  // Most tool messages answer no approval: the conversation is read only when this one does.
  if (!lastParts.some((part) => part.type === 'tool-approval-response')) return [];
  const answered = new Set<unknown>();
  for (const part of lastParts) if (part.type === 'tool-result') answered.add(part.toolCallId);
  const requests = new Map<string, string>();
  for (const part of partsOf(messages, 'assistant')) {
    if (part.type === 'tool-approval-request' && typeof part.approvalId === 'string' && typeof part.toolCallId === 'string') {
      requests.set(part.approvalId, part.toolCallId);
    }
  }
  const answers: ApprovalAnswerPart[] = [];
  for (const part of lastParts) {
    if (part.type !== 'tool-approval-response' || typeof part.approvalId !== 'string') continue;
    const toolCallId = requests.get(part.approvalId);
    if (toolCallId === undefined || answered.has(toolCallId)) continue;
    answers.push({
      approvalId: part.approvalId,
      toolCallId,
      approved: part.approved === true,
      reason: typeof part.reason === 'string' ? part.reason : undefined,
    });
  }
  return answers;
}

function partsOf(messages: unknown, role: string): Part[] {
  const parts: Part[] = [];
  if (!Array.isArray(messages)) return parts;
  for (const message of messages as unknown[]) {
    if (!isMessage(message) || message.role !== role || !Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) if (isPart(part)) parts.push(part);
  }
  return parts;
}

function isMessage(value: unknown): value is { readonly role?: unknown; readonly content?: unknown } {
  return value !== null && typeof value === 'object';
}

function isPart(value: unknown): value is Part {
  return value !== null && typeof value === 'object';
}
