/** How the LangChain adapter reads a tool: its name (required, with an error naming the fix) and description. */
import { describe, expect, it } from 'vitest';
import { describeTool, nameOf } from '../../../../src/adapters/langchain/tools.js';

describe('nameOf', () => {
  it("reads a tool's name", () => {
    expect(nameOf({ name: 'search' }, 'withHooks: tools[0]')).toBe('search');
  });

  it('says what a tool must be, naming where it was passed', () => {
    expect(() => nameOf('search', 'withHooks: tools[0]')).toThrow('withHooks: tools[0] must be a LangChain tool (tool(), StructuredTool, DynamicStructuredTool), got string');
    expect(() => nameOf({ name: '' }, 'withHooks: tools[1]')).toThrow('withHooks: tools[1].name must be a non-empty string (give the tool a name), got string');
    expect(() => nameOf({}, 'withHooks: tools[2]')).toThrow(/tools\[2\]\.name must be a non-empty string .* got undefined/);
  });
});

describe('describeTool', () => {
  it('gives a non-empty description, else nothing', () => {
    expect(describeTool({ description: 'Searches the web' })).toBe('Searches the web');
    expect(describeTool({ description: '' })).toBeUndefined();
    expect(describeTool(null)).toBeUndefined();
  });
});
