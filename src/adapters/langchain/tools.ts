/**
 * Reading LangChain tools: names (checked), descriptions.
 * @internal
 */
import { typeName } from '../../internal/describe.js';

/** The tool's name; a TypeError naming the parameter when it has none. */
export function nameOf(tool: unknown, what: string): string {
  if (tool === null || (typeof tool !== 'object' && typeof tool !== 'function')) {
    throw new TypeError(`${what} must be a LangChain tool (tool(), StructuredTool, DynamicStructuredTool), got ${typeName(tool)}`);
  }
  const name = (tool as { name?: unknown }).name;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`${what}.name must be a non-empty string (give the tool a name), got ${typeName(name)}`);
  }
  return name;
}

/** The tool's description, when it has a non-empty one. */
export function describeTool(tool: unknown): string | undefined {
  if (tool === null || typeof tool !== 'object') return undefined;
  const description = (tool as { description?: unknown }).description;
  return typeof description === 'string' && description !== '' ? description : undefined;
}
