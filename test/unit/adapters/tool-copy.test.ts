/** Copies of a framework's tools with the hooked function in place: the original is left as it was. */
import { describe, expect, it } from 'vitest';
import { copyWith, mapToolRecord } from '../../../src/adapters/tool-copy.js';

describe('copyWith', () => {
  it('keeps the prototype and every own property, symbol keys too, and replaces one', () => {
    const marker = Symbol('marker');
    class Tool {
      describe(): string {
        return 'a tool';
      }
    }
    const tool = Object.assign(new Tool(), { name: 'search', execute: (): string => 'original', [marker]: true });
    const copy = copyWith(tool, 'execute', () => 'hooked') as typeof tool;
    expect([copy instanceof Tool, copy.describe(), copy.name, copy[marker], copy.execute()]).toEqual([true, 'a tool', 'search', true, 'hooked']);
    expect(tool.execute()).toBe('original');
  });
});

describe('mapToolRecord', () => {
  it('replaces the tools the hook returns a copy for and keeps __proto__ an ordinary key', () => {
    const tools = JSON.parse('{"search":{"id":1},"__proto__":{"id":2}}') as Record<string, object>;
    const hooked = mapToolRecord(tools, (name, tool) => (name === 'search' ? { ...tool, hooked: true } : undefined));
    expect(Object.keys(hooked)).toEqual(['search', '__proto__']);
    expect(hooked.search).toEqual({ id: 1, hooked: true });
    expect(Object.getOwnPropertyDescriptor(hooked, '__proto__')?.value).toBe(tools['__proto__']);
  });
});
