/**
 * Tool results as Strands shapes them. A hooked call that ends without the tool's own result (a Skip,
 * an Abort, a denial, a Replace, an error) needs a Strands `ToolResultBlock` of real Strands content
 * blocks (Strands' context managers tell blocks apart with `instanceof`): their classes are read from
 * the app's `@strands-agents/sdk` when the first such call ends — never when toolhooks/strands loads.
 * @internal
 */
import type { StrandsResultContent, StrandsToolResultBlock } from './types.js';

/** The Strands classes a result is built from. */
interface BlockClasses {
  readonly ToolResultBlock: new (data: { toolUseId: string; status: 'success' | 'error'; content: StrandsResultContent[]; error?: Error }) => StrandsToolResultBlock;
  readonly TextBlock: new (text: string) => StrandsResultContent;
  readonly JsonBlock: new (data: { json: unknown }) => StrandsResultContent;
}

/** The package the classes come from; a variable, so that neither tsc nor a bundler resolves it at build time. */
const STRANDS = '@strands-agents/sdk';

let classes: Promise<BlockClasses> | undefined;

function loadClasses(): Promise<BlockClasses> {
  classes ??= (import(STRANDS) as Promise<BlockClasses>).catch((error: unknown) => {
    classes = undefined;
    throw error;
  });
  return classes;
}

/** The value hooks see for a tool's result: one text block's text, one JSON block's value, else the block itself. */
export function valueOf(block: StrandsToolResultBlock): unknown {
  const content = Array.isArray(block.content) ? block.content : [];
  const only = content.length === 1 ? content[0] : undefined;
  if (only?.type === 'textBlock') return only.text;
  if (only?.type === 'jsonBlock') return only.json;
  return block;
}

/** Whether `value` is a Strands tool result (a Replace may return one). */
export function isResultBlock(value: unknown): value is StrandsToolResultBlock {
  return value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'toolResultBlock' && Array.isArray((value as { content?: unknown }).content);
}

/** A tool result for `value`: a string as a text block, anything else as a JSON block. */
export async function resultBlock(toolUseId: string, status: 'success' | 'error', value: unknown, error?: Error): Promise<StrandsToolResultBlock> {
  const { ToolResultBlock, TextBlock, JsonBlock } = await loadClasses();
  const content = typeof value === 'string' ? new TextBlock(value) : new JsonBlock({ json: value === undefined ? null : value });
  return new ToolResultBlock({ toolUseId, status, content: [content], ...(error === undefined ? {} : { error }) });
}
