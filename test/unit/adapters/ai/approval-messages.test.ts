/**
 * Reading the AI SDK's approval parts from a conversation as the SDK collects them: the response in the
 * last tool message, matched to its request by approval id; calls already answered and unknown ids
 * are not answers; plain data (a JSON round trip) reads the same.
 */
import { describe, expect, it } from 'vitest';
import { answerFor, deniedCalls } from '../../../../src/adapters/ai/approval-messages.js';

const asked = {
  role: 'assistant',
  content: [
    { type: 'tool-call', toolCallId: 'c1', toolName: 'send_email', input: { to: 'a' } },
    { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'send_email', input: { to: 'b' } },
    { type: 'tool-approval-request', approvalId: 'ap2', toolCallId: 'c2' },
  ],
};
const answers = (...content: object[]) => [{ role: 'user', content: 'go' }, asked, { role: 'tool', content }];

describe('answerFor / deniedCalls', () => {
  it('finds the answer for a call by its request, and lists the denied calls with their tool and input', () => {
    const messages = answers({ type: 'tool-approval-response', approvalId: 'ap1', approved: true }, { type: 'tool-approval-response', approvalId: 'ap2', approved: false, reason: 'no' });
    expect(answerFor(messages, 'c1')).toEqual({ approvalId: 'ap1', toolCallId: 'c1', approved: true, reason: undefined });
    expect(deniedCalls(JSON.parse(JSON.stringify(messages)))).toEqual([{ approvalId: 'ap2', toolCallId: 'c2', approved: false, reason: 'no', toolName: 'send_email', input: { to: 'b' } }]);
  });

  it('reads no answer outside the last tool message, for an unknown id, or for a call already answered there', () => {
    const response = { type: 'tool-approval-response', approvalId: 'ap1', approved: true };
    expect(answerFor([asked, { role: 'tool', content: [response] }, { role: 'user', content: 'more' }], 'c1')).toBeUndefined();
    expect(answerFor(answers({ type: 'tool-approval-response', approvalId: 'nope', approved: true }), 'c1')).toBeUndefined();
    expect(answerFor(answers(response, { type: 'tool-result', toolCallId: 'c1', toolName: 'send_email', output: { type: 'text', value: 'sent' } }), 'c1')).toBeUndefined();
    for (const odd of [undefined, null, 'text', [], [null, 7, { role: 'tool', content: 'x' }]]) {
      expect(answerFor(odd, 'c1')).toBeUndefined();
      expect(deniedCalls(odd)).toEqual([]);
    }
  });
});
