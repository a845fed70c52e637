/**
 * opaHttp against a real OPA server (`opa run --server`, skipped outside CI without OPA) and against
 * servers that misbehave (written here: hang, 500, non-JSON, slow past timeoutMs): every call is decided
 * by the hook's failureMode within the timeout, and the hook error says which.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, HookTimeoutError, executeTool } from '../../../src/index.js';
import type { HookFailure, PhaseEvent } from '../../../src/index.js';
import { opaHttp, policyHook } from '../../../src/policy/index.js';
import type { PolicyHookOptions } from '../../../src/policy/index.js';
import { requireOpa, startOpaServer } from '../../support/opa.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('policy-opa-http');

const REGO = `
package toolhooks

default decision := {"decision": "allow"}

decision := {"decision": "deny", "reason": sprintf("%s may not run %s", [input.agent, input.tool])} if {
  input.tool == "shell"
  input.context.env == "prod"
}
`;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
});

/** A local server answering every request with `handle`; its base URL. */
async function fakeOpa(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => handle(request, response, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function run(url: string, options: PolicyHookOptions & { timeoutMs?: number; engineTimeoutMs?: number } = {}): Promise<{ result?: unknown; error?: unknown; failure?: HookFailure | undefined; ms: number }> {
  const { engineTimeoutMs, ...hookOptions } = options;
  const phases: PhaseEvent[] = [];
  const engine = opaHttp({ url, path: 'toolhooks/decision', ...(engineTimeoutMs === undefined ? {} : { timeoutMs: engineTimeoutMs }) });
  const runner = new HookRunner({
    hooks: [policyHook(engine, { context: () => ({ env: 'prod' }), ...hookOptions }), { name: 'observer', onEvent: (event) => void (event.type === 'phase' && phases.push(event)) }],
    agentName: 'ops-bot',
  });
  const started = performance.now();
  try {
    const result = await executeTool({ hooks: runner, toolName: 'shell', args: { cmd: 'ls' }, execute: () => 'ran' });
    return { result, failure: phases[0]?.errors[0], ms: performance.now() - started };
  } catch (error) {
    return { error, failure: phases[0]?.errors[0], ms: performance.now() - started };
  }
}

describe('opaHttp with a real OPA server', () => {
  it('asks POST /v1/data/<path> with the input document and does what the policy says', async (ctx) => {
    const opa = requireOpa(ctx);
    const server = await startOpaServer(opa, dir, { 'policy.rego': REGO });
    try {
      const denied = await run(server.url);
      expect(denied.error).toBeInstanceOf(HookAbortError);
      expect((denied.error as HookAbortError).reason).toBe('ops-bot may not run shell');
      expect((await run(server.url, { context: () => ({ env: 'dev' }) })).result).toBe('ran');
      const engine = opaHttp({ url: server.url, path: '/toolhooks/missing/' });
      expect(engine.digest).toBeUndefined();
      expect(engine.name).toBe('opa-http');
      // An undefined rule: OPA answers {} without "result", a malformed result (fail closed).
      const runner = new HookRunner({ hooks: [policyHook(engine)] });
      const error = await executeTool({ hooks: runner, toolName: 'shell', args: {}, execute: () => 'ran' }).catch((e: unknown) => e);
      expect(String(((error as HookAbortError).cause as Error).message)).toMatch(/OPA's undefined/);
    } finally {
      await server.stop();
    }
  });
});

describe('opaHttp with a server that misbehaves', () => {
  it('sends { input } as JSON with the headers given', async () => {
    let seen: { url?: string | undefined; body?: unknown; auth?: string | undefined } = {};
    const url = await fakeOpa((request, response, body) => {
      seen = { url: request.url, body: JSON.parse(body), auth: request.headers.authorization };
      response.end(JSON.stringify({ result: { decision: 'allow' } }));
    });
    const engine = opaHttp({ url: `${url}/base/`, path: 'a/b c', headers: { authorization: 'Bearer t' } });
    await engine.evaluate({ phase: 'before_tool', tool: 't', args: { x: 1 }, context: {} }, { signal: new AbortController().signal });
    expect(seen).toEqual({ url: '/base/v1/data/a/b%20c', body: { input: { phase: 'before_tool', tool: 't', args: { x: 1 }, context: {} } }, auth: 'Bearer t' });
  });

  it('a 500 fails closed, naming the status and the body', async () => {
    const url = await fakeOpa((_request, response) => {
      response.statusCode = 500;
      response.end('{"code":"internal_error","message":"boom"}');
    });
    const { error, failure } = await run(url);
    expect(error).toBeInstanceOf(HookAbortError);
    expect(failure?.kind).toBe('threw');
    expect(String((failure?.error as Error).message)).toMatch(/answered HTTP 500: .*internal_error/);
  });

  it('a body that is not JSON fails closed, saying so', async () => {
    const url = await fakeOpa((_request, response) => response.end('<html>proxy error</html>'));
    const { failure } = await run(url);
    expect(String((failure?.error as Error).message)).toMatch(/answered HTTP 200 with a body that is not JSON: "<html>proxy error<\/html>"/);
  });

  it('JSON that is not an object fails closed', async () => {
    const url = await fakeOpa((_request, response) => response.end('[1]'));
    expect(String(((await run(url)).failure?.error as Error).message)).toMatch(/not an object with "result"/);
  });

  it('a server that hangs: a timeout within timeoutMs, aborting closed and continuing open', async () => {
    const url = await fakeOpa(() => undefined);
    const closed = await run(url, { engineTimeoutMs: 150 });
    expect(closed.error).toBeInstanceOf(HookAbortError);
    expect(closed.failure?.kind).toBe('timeout');
    expect(closed.failure?.error).toBeInstanceOf(HookTimeoutError);
    expect(String((closed.failure?.error as Error).message)).toMatch(/did not answer within 150 ms/);
    expect(closed.ms).toBeLessThan(5_000);
    const open = await run(url, { engineTimeoutMs: 150, failureMode: 'open' });
    expect(open.result).toBe('ran');
    expect(open.failure?.kind).toBe('timeout');
  });

  it("a slow answer past the hook's own timeoutMs is the hook's timeout; the engine's signal stops the request", async () => {
    let closedEarly = false;
    const url = await fakeOpa((request, response) => {
      request.socket.on('close', () => (closedEarly = !response.writableEnded));
      setTimeout(() => {
        if (!response.destroyed) response.end('{"result":true}');
      }, 2_000).unref();
    });
    const { error, failure } = await run(url, { timeoutMs: 100 });
    expect(error).toBeInstanceOf(HookAbortError);
    expect(failure?.kind).toBe('timeout');
    await expect.poll(() => closedEarly).toBe(true);
  });

  it('a server that is not there fails closed with the connection error', async () => {
    const url = await fakeOpa(() => undefined);
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    const { failure } = await run(url);
    expect(String((failure?.error as Error).message)).toMatch(/opaHttp: POST http:\/\/127\.0\.0\.1:\d+\/v1\/data\/toolhooks\/decision failed: fetch failed/);
  });
});

describe('opaHttp options', () => {
  it('names what is wrong', () => {
    expect(() => opaHttp(undefined as never)).toThrow(/needs \{ url, path \}/);
    expect(() => opaHttp({ path: 'a' } as never)).toThrow(/url is required/);
    expect(() => opaHttp({ url: 'http://x' } as never)).toThrow(/path is required/);
    expect(() => opaHttp({ url: 'not a url', path: 'a' })).toThrow(/url must be an http\(s\) URL/);
    expect(() => opaHttp({ url: 'ftp://x', path: 'a' })).toThrow(/url must be an http\(s\) URL/);
    expect(() => opaHttp({ url: 'http://x', path: '//' })).toThrow(/path must name a rule/);
    expect(() => opaHttp({ url: 'http://x', path: 'a', timeoutMs: 0 })).toThrow(/timeoutMs must be/);
    expect(() => opaHttp({ url: 'http://x', path: 'a', headers: { a: 1 } as never })).toThrow(/headers must map names to strings/);
  });
});
