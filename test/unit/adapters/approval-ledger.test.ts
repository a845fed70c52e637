/**
 * The approval ledger the framework adapters share: approvals kept under their id and the digest of
 * the call they are about, so that conversations sharing a call id (`call_0`) neither consume nor
 * re-arm each other's approvals, a continuation of another call is refused, and memory stays bounded.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalLedger, PER_ID_CAPACITY, approvalId, callDigest } from '../../../src/adapters/approval-ledger.js';

const spanContext = { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 };
const mail = (to: string): string | undefined => callDigest('send_email', { to });

function warnings(): string[] {
  const seen: string[] = [];
  vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void seen.push(String(warning)));
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe('ApprovalLedger', () => {
  it('links a continuation to the span that asked, allows ids it never saw, and refuses a second resolution once, with a warning', () => {
    const seen = warnings();
    const ledger = new ApprovalLedger('withHooks');
    ledger.asked('x', mail('a'), spanContext);
    expect(ledger.resolve('x', mail('a'))).toEqual({ kind: 'asked', askedIn: spanContext });
    expect(ledger.resolve('from-another-process', mail('a'))).toEqual({ kind: 'elsewhere' });
    expect(seen).toEqual([]);
    expect(ledger.resolve('x', mail('a'))).toEqual({ kind: 'resolved' });
    expect(ledger.resolve('from-another-process', mail('a'))).toEqual({ kind: 'resolved' });
    expect(seen[0]).toContain('approval "x" was already resolved');
  });

  it('two conversations waiting at once under one call id, both approved: each resolves once', () => {
    const ledger = new ApprovalLedger('withHooks');
    ledger.asked('call_0', mail('alice'), spanContext);
    ledger.asked('call_0', mail('bob'), undefined);
    expect(ledger.resolve('call_0', mail('bob'))).toEqual({ kind: 'asked', askedIn: undefined });
    expect(ledger.resolve('call_0', mail('alice'))).toEqual({ kind: 'asked', askedIn: spanContext });
    expect(ledger.resolve('call_0', mail('alice')).kind).toBe('resolved');
  });

  it('a replay after another conversation asked under the same id is still refused', () => {
    const ledger = new ApprovalLedger('withHooks');
    ledger.asked('call_0', mail('alice'), undefined);
    expect(ledger.resolve('call_0', mail('alice')).kind).toBe('asked');
    ledger.asked('call_0', mail('bob'), undefined);
    expect(ledger.resolve('call_0', mail('alice')).kind).toBe('resolved');
    expect(ledger.resolve('call_0', mail('bob')).kind).toBe('asked');
  });

  it('a continuation of another call than the one asked about is refused with a warning, and the ask stays for its own', () => {
    const seen = warnings();
    const ledger = new ApprovalLedger('withHooks');
    ledger.asked('t1', mail('alice'), undefined);
    expect(ledger.resolve('t1', mail('mallory'))).toEqual({ kind: 'differs' });
    expect(ledger.resolve('t1', callDigest('delete_account', { to: 'alice' }))).toEqual({ kind: 'differs' });
    expect(seen.some((warning) => warning.includes('is not the call that was asked about'))).toBe(true);
    expect(ledger.resolve('t1', mail('alice')).kind).toBe('asked');
  });

  it('without a digest (the framework names only the call id) the oldest ask of the id is taken', () => {
    const ledger = new ApprovalLedger('withHooks');
    ledger.asked('r1', mail('a'), spanContext);
    expect(ledger.resolve('r1', undefined)).toEqual({ kind: 'asked', askedIn: spanContext });
    expect(ledger.resolve('r1', undefined).kind).toBe('resolved');
  });

  it('is bounded: the oldest ids are forgotten, and each id keeps at most PER_ID_CAPACITY asks', () => {
    const ledger = new ApprovalLedger('withHooks', 2);
    for (const id of ['a', 'b', 'c']) ledger.resolve(id, undefined);
    expect(ledger.resolve('a', undefined).kind).toBe('elsewhere');
    const one = new ApprovalLedger('withHooks');
    for (let i = 0; i <= PER_ID_CAPACITY; i += 1) one.asked('call_0', mail(String(i)), undefined);
    expect(one.resolve('call_0', mail('0')).kind).toBe('differs'); // the oldest ask was dropped
    expect(one.resolve('call_0', mail(String(PER_ID_CAPACITY))).kind).toBe('asked');
  });

  it('a memory of asks alone keeps nothing for ids it did not ask about', () => {
    const ledger = new ApprovalLedger('withHooks', 10, { replays: false });
    for (let i = 0; i < 100; i += 1) expect(ledger.resolve(`forged-${i}`, mail('x')).kind).toBe('elsewhere');
    ledger.asked('mine', mail('x'), spanContext);
    expect(ledger.resolve('mine', mail('x'))).toEqual({ kind: 'asked', askedIn: spanContext });
    expect(ledger.resolve('mine', mail('x')).kind).toBe('elsewhere');
  });

  it('digests tell calls apart by tool and arguments; ids are scoped by run or thread', () => {
    expect(callDigest('t', { a: 1 })).toBe(callDigest('t', { a: 1 }));
    expect(callDigest('t', { a: 1 })).not.toBe(callDigest('t', { a: 2 }));
    expect(callDigest('t', { a: 1 })).not.toBe(callDigest('u', { a: 1 }));
    expect(callDigest('t', { a: 1n })).toBeUndefined();
    expect(approvalId(undefined, 'call_0')).toBe('call_0');
    expect(approvalId('thread-1', 'call_0')).not.toBe(approvalId('thread-2', 'call_0'));
  });
});
