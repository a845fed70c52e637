/**
 * What a tool gets after a Redirect: `{ ...args, ...newArgs }` — the caller's own properties (symbol-keyed
 * ones included, as the tool would have had them without the Redirect) with the Redirect's on top, as
 * plain data in a new object; neither the caller's object nor the decision's changes.
 */
import { describe, expect, it } from 'vitest';
import type { ToolArgs } from '../../../src/index.js';
import { HookRunner, executeTool, redirect } from '../../../src/index.js';

const TRACE = Symbol('trace');

describe('the arguments a Redirect runs the tool with', () => {
  it('keep the caller’s symbol-keyed properties and put the new ones on top, in a new object', async () => {
    const args: ToolArgs = { query: 'otel', limit: 50, [TRACE]: 'kept' };
    const decision = redirect({ newArgs: { limit: 10 } });
    let ran: ToolArgs | undefined;
    await executeTool({
      hooks: new HookRunner([{ name: 'cap', beforeTool: () => decision }]),
      toolName: 'search',
      args,
      execute: (given) => void (ran = given),
    });
    expect(ran).toEqual({ query: 'otel', limit: 10, [TRACE]: 'kept' });
    expect(ran).not.toBe(args);
    expect(args).toEqual({ query: 'otel', limit: 50, [TRACE]: 'kept' });
    expect(decision.newArgs).toEqual({ limit: 10 });
  });

  it('keep an own __proto__ key as data: the merged object’s prototype stays Object.prototype', async () => {
    const args = JSON.parse('{"__proto__": {"isAdmin": true}, "path": "/tmp"}') as ToolArgs;
    const newArgs = JSON.parse('{"__proto__": {"isRoot": true}}') as ToolArgs;
    let ran: ToolArgs | undefined;
    await executeTool({
      hooks: new HookRunner([{ name: 'move', beforeTool: () => redirect({ newArgs }) }]),
      toolName: 'read',
      args,
      execute: (given) => void (ran = given),
    });
    expect(Object.getPrototypeOf(ran)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(ran, '__proto__')?.value).toEqual({ isRoot: true });
    expect((ran as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(ran?.path).toBe('/tmp');
  });
});
