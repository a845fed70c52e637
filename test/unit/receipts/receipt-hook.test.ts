import { createHash, createHmac, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTINUE, HookRunner, abort, ask, executeTool, redirect, skip } from '../../../src/index.js';
import { withDecisionAttributes } from '../../../src/decisions.js';
import { limitHook } from '../../../src/limits/index.js';
import type { ToolHook } from '../../../src/index.js';
import { receiptHook, verifyReceipts } from '../../../src/receipts/index.js';
import { canonicalJson } from '../../../src/receipts/canonical-json.js';
import { ATTR_RECEIPT_SEQ, ATTR_RECEIPT_STREAM, SPAN_APPROVAL, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { recordDiag } from '../../support/diag.js';
import { useTempDir } from '../../support/temp-dir.js';
import { createTestTracing } from '../../support/tracing.js';
import { memorySink } from '../../support/memory-sink.js';

const dir = useTempDir('receipt-hook');
const tracing = createTestTracing();
const diagnostics = recordDiag();
let fileNumber = 0;

beforeEach(() => {
  tracing.reset();
  diagnostics.start();
});
afterEach(() => {
  diagnostics.stop();
  vi.useRealTimers();
});

async function verified(lines: { saveTo(path: string): void }, publicKey?: Parameters<typeof verifyReceipts>[1]) {
  fileNumber += 1;
  const path = join(dir, `receipts-${fileNumber}.jsonl`);
  lines.saveTo(path);
  return verifyReceipts(path, publicKey);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('receiptHook: what it records', () => {
  it('writes one record per hook decision (Continue, shadowed, audit and failed ones included) and one per call outcome', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, stream: 's1' });
    const hooks: ToolHook[] = [
      { name: 'allow', beforeTool: () => undefined },
      { name: 'first', beforeTool: () => skip('cached', 'stub') },
      { name: 'second', beforeTool: () => redirect({ newArgs: { q: 'other' }, reason: 'shadowed' }) },
      { name: 'watch', mode: 'audit', beforeTool: () => abort('would stop') },
      {
        name: 'broken',
        beforeTool: () => {
          throw new Error('boom');
        },
      },
      receipts,
    ];
    const runner = tracing.runner(hooks);
    const result = await executeTool({ hooks: runner, toolName: 'search', args: { q: 'secret query' }, callId: 'c1', execute: () => 'real' });
    expect(result).toBe('stub');
    await receipts.close();

    const records = sink.records();
    expect(records.map((r) => [r.seq, r.hook ?? null, r.decision ?? null, r.outcome ?? null])).toEqual([
      [1, 'allow', 'continue', null],
      [2, 'first', 'skip', null],
      [3, 'second', 'redirect', null],
      [4, 'watch', 'abort', null],
      [5, 'broken', 'error', null],
      [6, null, null, 'skipped'],
    ]);
    expect(records[1]).toMatchObject({ v: 1, stream: 's1', tool: 'search', phase: 'before_tool', effective: 'skip', mode: 'enforce', reason: 'cached', call_id: 'c1' });
    expect(records[3]).toMatchObject({ mode: 'audit', reason: 'would stop' });
    expect(records[4]).toMatchObject({ decision: 'error', reason: 'threw' });
    // Arguments and results never appear; only their digest does.
    expect(sink.lines.join('\n')).not.toMatch(/secret query|real|stub/);
    expect(records[0]?.args_digest).toBe(`sha256:${sha256(canonicalJson({ q: 'secret query' }))}`);
    expect(await verified(sink)).toMatchObject({ ok: true, records: 6, streams: 1, heads: 0, problems: [] });
  });

  it('chains records exactly: seq from 1, prev from 64 zeros, hash over prev, a newline and the JCS of the record without hash', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    await executeTool({ hooks: new HookRunner([receipts, { beforeTool: () => undefined }]), toolName: 't', args: {}, execute: () => 1 });
    const [first, second] = sink.records() as [Record<string, unknown>, Record<string, unknown>];
    expect(first.prev).toBe('0'.repeat(64));
    const { hash, ...content } = first;
    expect(hash).toBe(sha256(`${'0'.repeat(64)}\n${canonicalJson(content)}`));
    expect(second.prev).toBe(hash);
    expect(first.stream).toBe(receipts.stream);
    expect(receipts.stream).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('records each approval outcome with the asking hook, and the call outcome after it', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = tracing.runner([{ name: 'gate', beforeTool: () => ask('mail goes out') }, receipts], {
      approver: () => ({ approved: false, reason: 'freeze', approver: 'on-call' }),
    });
    await executeTool({ hooks: runner, toolName: 'send', args: { to: 'x' }, execute: () => 'sent' });
    const records = sink.records();
    expect(records.map((r) => r.decision ?? r.approval ?? r.outcome)).toEqual(['ask', 'denied', 'denied']);
    expect(records[1]).toMatchObject({ hook: 'gate', approval: 'denied', phase: 'before_tool', reason: 'mail goes out' });
    expect(records[1]?.span_id).toBe(tracing.onlySpan(SPAN_APPROVAL).spanContext().spanId);
  });

  it('binds records to their spans: decisions to the phase span, the outcome to execute_tool, which names the record', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, stream: 'bound' });
    const runner = tracing.runner([{ name: 'p', beforeTool: () => undefined }, receipts]);
    await executeTool({ hooks: runner, toolName: 'lookup', args: {}, execute: () => 1 });
    const [decision, outcome] = sink.records() as [Record<string, unknown>, Record<string, unknown>];
    const phase = tracing.onlySpan(SPAN_BEFORE_TOOL);
    const call = tracing.onlySpan('execute_tool lookup');
    expect(decision).toMatchObject({ trace_id: phase.spanContext().traceId, span_id: phase.spanContext().spanId });
    expect(outcome).toMatchObject({ trace_id: call.spanContext().traceId, span_id: call.spanContext().spanId, outcome: 'completed' });
    expect(call.attributes[ATTR_RECEIPT_STREAM]).toBe('bound');
    expect(call.attributes[ATTR_RECEIPT_SEQ]).toBe(outcome.seq);
  });

  it('writes zero ids without a tracer, and the redirected tool as the outcome\'s effective tool', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = new HookRunner([{ name: 'r', beforeTool: () => redirect({ newTool: 'safe' }) }, receipts]);
    await executeTool({ hooks: runner, toolName: 'risky', args: {}, execute: () => 1, tools: { safe: () => 2 } });
    const outcome = sink.records().at(-1);
    expect(outcome).toMatchObject({ tool: 'risky', effective: 'safe', trace_id: '0'.repeat(32), span_id: '0'.repeat(16) });
  });

  it('digests arguments with HMAC-SHA-256 when given argsKey', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, argsKey: 'k' });
    await executeTool({ hooks: new HookRunner([receipts]), toolName: 't', args: { pin: 1234 }, execute: () => 1 });
    expect(sink.records()[0]?.args_digest).toBe(`hmac-sha256:${createHmac('sha256', 'k').update('{"pin":1234}').digest('hex')}`);
    const bytes = receiptHook({ sink: memorySink(), argsKey: new Uint8Array([1, 2]) });
    expect(bytes.stream).toBeTypeOf('string');
  });

  it('records an abort and never changes a decision', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = new HookRunner([receipts, { name: 'stop', beforeTool: () => abort('no') }]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 })).rejects.toThrow('no');
    expect(sink.records().map((r) => r.outcome ?? r.decision)).toEqual(['abort', 'aborted']);
    expect(sink.records()[1]?.reason).toBe('no');
  });

  it('keeps one contiguous chain across 200 concurrent calls', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = tracing.runner([{ name: 'slow', beforeTool: async () => new Promise((r) => setTimeout(r, Math.random() * 5)) }, receipts]);
    await Promise.all(Array.from({ length: 200 }, (_, i) => executeTool({ hooks: runner, toolName: 't', args: { i }, execute: () => i })));
    const seqs = sink.records().map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(await verified(sink)).toMatchObject({ ok: true, records: 400 });
  });

  it('orders by seq, never by time: a clock stepping backwards still verifies', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = new HookRunner([receipts, { beforeTool: () => undefined }]);
    for (const at of ['2026-06-01T12:00:00Z', '2026-06-01T11:00:00Z', '2025-01-01T00:00:00Z']) {
      vi.setSystemTime(new Date(at));
      await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    }
    expect(sink.records().map((r) => r.time)).toContain('2025-01-01T00:00:00.000Z');
    expect((await verified(sink)).ok).toBe(true);
  });

  it("carries a limit hook's count and a policy hook's engine, digest and rules on their decision records", async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const policy: ToolHook = {
      name: 'opa',
      beforeTool: () => withDecisionAttributes(CONTINUE, { 'toolhooks.policy.engine': 'cedar', 'toolhooks.policy.digest': 'ab12', 'toolhooks.policy.ids': ['allow-read'] }),
    };
    const runner = tracing.runner([policy, limitHook({ name: 'twice', limit: 2, windowMs: 60_000 }), receipts]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    await receipts.close();
    const byHook = new Map(sink.records().filter((record) => record['hook'] !== undefined).map((record) => [record['hook'], record]));
    expect(byHook.get('opa')?.['policy']).toEqual({ engine: 'cedar', digest: 'ab12', ids: ['allow-read'] });
    expect(byHook.get('twice')?.['limit']).toEqual({ used: 1, limit: 2, window_ms: 60_000 });
    expect(byHook.get('twice')?.['policy']).toBeUndefined();
    expect((await verified(sink)).ok).toBe(true);
  });

  it('gives a well-formed text for a lone surrogate in a reason, and "unavailable" for arguments that cannot be read', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink });
    const runner = new HookRunner([receipts, { beforeTool: () => skip('bad \ud800 text') }]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    expect(sink.records()[0]?.reason).toBe('bad \ufffd text');
    // Arguments no hook can be given a copy of refuse the call; its outcome is still recorded.
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } });
    await executeTool({ hooks: runner, toolName: 't', args: hostile, execute: () => 1 }).catch(() => undefined);
    const records = sink.records();
    expect(records.some((r) => r.args_digest === 'unavailable')).toBe(true);
    expect((await verified(sink)).ok).toBe(true);
  });
});

describe('receiptHook: signed heads', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('signs a head every headEvery records and at close, with the key id of the raw public key', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, signingKey: privateKey, headEvery: 3 });
    const runner = new HookRunner([receipts, { beforeTool: () => undefined }]);
    for (let i = 0; i < 4; i += 1) await executeTool({ hooks: runner, toolName: 't', args: { i }, execute: () => i });
    await receipts.close();
    await receipts.close();
    expect(sink.heads().map((head) => head.seq)).toEqual([3, 6, 8]);
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
    expect(sink.heads()[0]?.key_id).toBe(sha256Bytes(raw).slice(0, 16));
    expect(await verified(sink, { publicKey })).toMatchObject({ ok: true, heads: 3, signaturesChecked: 3 });
    expect(sink.closed).toBe(true);
  });

  it('hands each head to onHead, to publish it elsewhere; a throwing onHead is reported and changes nothing', async () => {
    const sink = memorySink();
    const published: unknown[] = [];
    const receipts = receiptHook({ sink, signingKey: privateKey, headEvery: 2, onHead: (head) => void published.push(head) });
    await executeTool({ hooks: new HookRunner([receipts, { beforeTool: () => undefined }]), toolName: 't', args: {}, execute: () => 1 });
    expect(published).toEqual(sink.heads());
    const throwing = receiptHook({
      sink: memorySink(),
      signingKey: privateKey,
      headEvery: 1,
      onHead: () => {
        throw new Error('collector down');
      },
    });
    expect(await executeTool({ hooks: new HookRunner([throwing]), toolName: 't', args: {}, execute: () => 'ran' })).toBe('ran');
    expect(diagnostics.messages.join('\n')).toMatch(/onHead threw: collector down; the head is in the sink all the same/);
  });

  it('reads the key from PEM text or a PEM file', () => {
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const path = join(dir, 'key.pem');
    writeFileSync(path, pem);
    expect(() => receiptHook({ sink: memorySink(), signingKey: pem })).not.toThrow();
    expect(() => receiptHook({ sink: memorySink(), signingKey: path })).not.toThrow();
  });

  it('writes no head at close when the last one is current, and none without a key', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, signingKey: privateKey, headEvery: 2 });
    await executeTool({ hooks: new HookRunner([receipts, { beforeTool: () => undefined }]), toolName: 't', args: {}, execute: () => 1 });
    await receipts.close();
    expect(sink.heads().map((head) => head.seq)).toEqual([2]);
    const unsigned = memorySink();
    const plain = receiptHook({ sink: unsigned });
    await executeTool({ hooks: new HookRunner([plain]), toolName: 't', args: {}, execute: () => 1 });
    await plain.close();
    expect(unsigned.heads()).toEqual([]);
  });
});

function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('receiptHook: a sink that cannot write', () => {
  it('is reported once, and never fails a call (failing open)', async () => {
    const sink = memorySink();
    sink.failing = new Error('ENOSPC: no space left on device');
    const receipts = receiptHook({ sink });
    const runner = new HookRunner([receipts, { beforeTool: () => undefined }]);
    for (let i = 0; i < 3; i += 1) expect(await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => i })).toBe(i);
    await vi.waitFor(() => expect(diagnostics.messages.filter((m) => m.includes('could not write a receipt'))).toHaveLength(1));
    expect(diagnostics.messages[0]).toMatch(/ENOSPC.*tool calls go on/);
    sink.failing = undefined;
    await receipts.flush();
    expect(sink.records().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops calls until it can write again when failing closed', async () => {
    const sink = memorySink();
    const receipts = receiptHook({ sink, failureMode: 'closed' });
    const ran: number[] = [];
    const runner = new HookRunner([{ name: 'p', beforeTool: () => undefined }, receipts]);
    const call = (i: number) => executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => ran.push(i) });
    await call(1);
    sink.failing = new Error('EACCES: permission denied');
    await call(2); // its records cannot be written: the failure is learnt from them
    await vi.waitFor(() => expect(diagnostics.messages.join('\n')).toMatch(/refused until the receipt sink can write/));
    await expect(call(3)).rejects.toThrow(/receipt sink cannot write \(EACCES.*calls stop until it can/);
    sink.failing = undefined;
    await call(4);
    expect(ran).toEqual([1, 2, 4]);
    // The recorder's own gate is not a decision: no record names it.
    expect(sink.records().some((r) => r.hook === 'receipts')).toBe(false);
    expect((await verified(sink)).ok).toBe(true);
    await receipts.close();
    await expect(call(5)).rejects.toThrow(/is closed; calls stop/);
  });

  it('reports a sink that throws instead of rejecting, and drops events after close with one warning', async () => {
    const receipts = receiptHook({
      sink: {
        write: () => {
          throw new Error('sync failure');
        },
        flush: () => Promise.resolve(),
        close: () => Promise.resolve(),
      },
    });
    const runner = new HookRunner([receipts]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    expect(diagnostics.messages.join('\n')).toMatch(/sync failure/);
    await receipts.close();
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    expect(diagnostics.messages.filter((m) => m.includes('is closed'))).toHaveLength(1);
  });
});

describe('receiptHook: bad options', () => {
  it.each([
    [undefined, /needs \{ sink \}/],
    [{}, /sink is required/],
    [{ sink: { write: () => undefined } }, /sink must have a flush\(\) method/],
    [{ sink: memorySink(), stream: '' }, /stream must be a non-empty/],
    [{ sink: memorySink(), argsKey: '' }, /argsKey must be a non-empty string or Uint8Array/],
    [{ sink: memorySink(), headEvery: 0 }, /headEvery must be an integer >= 1/],
    [{ sink: memorySink(), failureMode: 'shut' }, /failureMode must be 'open' or 'closed'/],
    [{ sink: memorySink(), sinc: 1 }, /sinc/],
    [{ sink: memorySink(), signingKey: 42 }, /signingKey must be an Ed25519 KeyObject, PEM text or the path of a PEM file/],
    [{ sink: memorySink(), signingKey: '/nonexistent/receipts-key.pem' }, /cannot read the signingKey file "\/nonexistent\/receipts-key.pem"/],
  ])('rejects %o', (options, message) => {
    expect(() => receiptHook(options as never)).toThrow(message);
  });

  it('names a key file that holds no key, or a key that is not Ed25519', () => {
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a key');
    expect(() => receiptHook({ sink: memorySink(), signingKey: junk })).toThrow(/the signingKey file ".*junk.pem" is not a PEM private key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => receiptHook({ sink: memorySink(), signingKey: rsa })).toThrow(/is a rsa key; receipts need Ed25519/);
    const rsaPem = join(dir, 'rsa.pem');
    writeFileSync(rsaPem, rsa.export({ format: 'pem', type: 'pkcs8' }));
    expect(() => receiptHook({ sink: memorySink(), signingKey: rsaPem })).toThrow(/the signingKey file ".*rsa.pem" is a rsa key/);
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(() => receiptHook({ sink: memorySink(), signingKey: publicKey })).toThrow(/must be an Ed25519 private key, got a public key/);
  });
});
