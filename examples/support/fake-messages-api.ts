/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for running the Claude Agent
 * SDK's bundled CLI offline (`ANTHROPIC_BASE_URL`). Each `POST /v1/messages` gets the next scripted
 * turn (streamed as SSE when asked); every request body is kept, so a test can read what the model
 * was shown. The reachability probes some CLI releases send first (`HEAD /`, as 0.3.142's does;
 * `HEAD /api/hello`, as 0.3.237's does) are answered 200; any other path is answered 404 and recorded as
 * unexpected.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ContentBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages: { role: string; content: unknown }[];
}

export interface FakeMessagesApi {
  readonly url: string;
  readonly requests: MessagesRequest[];
  readonly unexpected: string[];
  close(): Promise<void>;
}

/** The tool_result blocks of a request, as `{ tool_use_id: { text, isError } }`. */
export function toolResultsIn(request: MessagesRequest | undefined): Record<string, { text: string; isError: boolean }> {
  const results: Record<string, { text: string; isError: boolean }> = {};
  for (const message of request?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      const content = block.content;
      const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
      results[block.tool_use_id] = { text, isError: block.is_error === true };
    }
  }
  return results;
}

/** All text of a request's messages (user and system), for context the SDK adds. */
export function textOf(request: MessagesRequest | undefined): string {
  return JSON.stringify(request?.messages ?? []);
}

export async function startFakeMessagesApi(turns: ContentBlock[][]): Promise<FakeMessagesApi> {
  const requests: MessagesRequest[] = [];
  const unexpected: string[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'HEAD' && (path === '/' || path === '/api/hello')) {
        res.writeHead(200).end();
        return;
      }
      if (req.method !== 'POST' || !path.startsWith('/v1/messages')) {
        unexpected.push(`${req.method} ${path}`);
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (path.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
        return;
      }
      const request = JSON.parse(body) as MessagesRequest;
      requests.push(request);
      const content = turns[next] ?? [{ type: 'text', text: 'done' }];
      next += 1;
      const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = { id: `msg_${next}`, type: 'message', role: 'assistant', model: request.model ?? 'claude', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 } };
      if (request.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: Record<string, unknown>): void => {
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      };
      send('message_start', { message: { ...message, content: [], stop_reason: null } });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', { index, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          send('content_block_start', { index, content_block: { ...block, input: {} } });
          send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        send('content_block_stop', { index });
      });
      send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unexpected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
