/**
 * cedarPolicy with the real `@cedar-policy/cedar-wasm` (in process): the request it builds, the
 * determining policies by their @id, @decision("requires-approval"), construction errors with Cedar's
 * message and the values Cedar cannot hold. A hostile input decided through policyHook is in
 * test/integration/policy/cedar.large-inputs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { cedarPolicy, policyHook } from '../../../src/policy/index.js';
import type { PolicyInput } from '../../../src/policy/index.js';
import { CEDAR_POLICIES, cedarGate } from '../../support/cedar-gate.js';
import { cedarValue, parseEntityUid } from '../../../src/policy/cedar-values.js';
import { sha256Hex } from '../../../src/policy/digest.js';


const signal = new AbortController().signal;

function input(tool: string, args: Record<string, unknown>, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { phase: 'before_tool', tool, args, agent: 'ops-bot', context: {}, ...extra };
}

const engine = cedarGate;

describe('cedarPolicy', () => {
  it('is named cedar, with the SHA-256 of the policy text as its digest', async () => {
    const cedar = await engine();
    expect(cedar.name).toBe('cedar');
    expect(cedar.digest).toBe(sha256Hex(CEDAR_POLICIES));
  });

  it('names the determining policies by @id; a forbid denies with its @reason', async () => {
    const cedar = await engine();
    expect(await cedar.evaluate(input('shell', { cmd: 'rm -rf /' }), { signal })).toEqual({ decision: 'deny', reason: 'destructive shell command', policies: ['no-rm'] });
    expect(await cedar.evaluate(input('shell', { cmd: 'ls' }), { signal })).toEqual({ decision: 'allow', policies: ['ops-shell'] });
  });

  it('Cedar\'s default deny denies without ids (policyHook then says "denied by policy")', async () => {
    const cedar = await engine();
    expect(await cedar.evaluate(input('shell', { cmd: 'ls' }, { agent: 'stranger' }), { signal })).toEqual({ decision: 'deny' });
    const runner = new HookRunner({ hooks: [policyHook(cedar)], agentName: 'stranger' });
    await expect(executeTool({ hooks: runner, toolName: 'shell', args: { cmd: 'ls' }, execute: () => 'ran' })).rejects.toMatchObject({ name: 'HookAbortError', reason: 'denied by policy' });
  });

  it('asks when a determining permit is annotated @decision("requires-approval")', async () => {
    const cedar = await engine();
    expect(await cedar.evaluate(input('send_email', { to: 'eve@elsewhere.org' }), { signal })).toEqual({ decision: 'requires-approval', policies: ['mail-outside'] });
    expect(await cedar.evaluate(input('send_email', { to: 'ann@example.com' }), { signal })).toEqual({ decision: 'allow', policies: ['mail-inside'] });
  });

  it('puts phase, callId and the context option\'s facts in the context', async () => {
    const cedar = await engine();
    expect(await cedar.evaluate(input('shell', { cmd: 'ls' }, { context: { env: 'staging' }, callId: 'c1' }), { signal })).toMatchObject({ decision: 'deny', policies: ['prod-only'] });
    expect(await cedar.evaluate(input('shell', { cmd: 'ls' }, { context: { env: 'staging' }, phase: 'after_tool' }), { signal })).toMatchObject({ decision: 'allow' });
  });

  it('uses Cedar\'s own ids for policies without @id', async () => {
    const cedar = await cedarPolicy({ policies: 'permit (principal, action, resource);', principal: () => 'User::"a"' });
    expect(await cedar.evaluate(input('x', {}), { signal })).toEqual({ decision: 'allow', policies: ['policy0'] });
  });

  it('validates requests against a schema when one is given', async () => {
    const schema = 'entity User; entity Tool; action "lookup" appliesTo { principal: User, resource: Tool, context: { phase: String, args: { q: String } } };';
    const cedar = await cedarPolicy({ policies: 'permit (principal, action == Action::"lookup", resource);', schema, principal: () => 'User::"a"' });
    expect(await cedar.evaluate(input('lookup', { q: 'x' }), { signal })).toMatchObject({ decision: 'allow' });
    expect(() => cedar.evaluate(input('lookup', { q: 1 }), { signal })).toThrow(/cedarPolicy: Cedar could not decide/);
  });

  it('fails at construction with Cedar\'s message', async () => {
    await expect(cedarPolicy({ policies: 'permit (principal, action, resource', principal: () => 'User::"a"' })).rejects.toThrow(/^cedarPolicy: the policies do not parse: /);
    await expect(cedarPolicy({ policies: '@id("a") permit (principal, action, resource); @id("a") forbid (principal, action, resource);', principal: () => 'User::"a"' })).rejects.toThrow(
      /two policies have the id "a"/,
    );
    await expect(cedarPolicy({ policies: '@decision("maybe") permit (principal, action, resource);', principal: () => 'User::"a"' })).rejects.toThrow(/@decision\("maybe"\)/);
    await expect(cedarPolicy({ policies: 'permit (principal, action, resource);', schema: 'entity', principal: () => 'User::"a"' })).rejects.toThrow(/the schema does not parse/);
    await expect(cedarPolicy({ policies: 'permit (principal, action, resource);', entities: [{ uid: 1 }], principal: () => 'User::"a"' })).rejects.toThrow(/the entities do not parse/);
  });

  it('rejects missing or malformed options', async () => {
    await expect(cedarPolicy(undefined as never)).rejects.toThrow(/needs \{ policies, principal \}/);
    await expect(cedarPolicy({ principal: () => 'User::"a"' } as never)).rejects.toThrow(/policies is required/);
    await expect(cedarPolicy({ policies: '' } as never)).rejects.toThrow(/principal is required/);
    await expect(cedarPolicy({ policies: 1, principal: () => '' } as never)).rejects.toThrow(/policies must be a string/);
  });

  it('a principal that is not an entity is an error naming it (the hook fails closed)', async () => {
    const cedar = await cedarPolicy({ policies: 'permit (principal, action, resource);', principal: () => 'alice' });
    expect(() => cedar.evaluate(input('x', {}), { signal })).toThrow(/principal\(input\) must be an entity in Cedar's syntax, such as 'User::"alice"', got the string "alice"/);
  });
});

describe('Cedar values', () => {
  it('leaves out null, passes non-integers as strings, and never lets an argument name an entity', () => {
    expect(cedarValue({ a: null, b: 1.5, c: 2, d: [1, null, 'x'], e: { __entity: { type: 'Admin', id: 'root' } }, f: true, g: 2 ** 60 })).toEqual({
      b: '1.5',
      c: 2,
      d: [1, 'x'],
      e: '{"__entity":{"type":"Admin","id":"root"}}',
      f: true,
      g: String(2 ** 60),
    });
    expect(cedarValue({ __extn: { fn: 'ip', arg: '1.2.3.4' } })).toBe('{"__extn":{"fn":"ip","arg":"1.2.3.4"}}');
  });

  it('parses entity uids in Cedar syntax', () => {
    expect(parseEntityUid('User::"alice"', 'p')).toEqual({ type: 'User', id: 'alice' });
    expect(parseEntityUid('App::Agent::"ops \\"bot\\""', 'p')).toEqual({ type: 'App::Agent', id: 'ops "bot"' });
    for (const bad of ['User::alice', '::"x"', 'Us er::"x"', 'User::"x', 42]) expect(() => parseEntityUid(bad, 'p')).toThrow(/p must be an entity/);
  });
});
