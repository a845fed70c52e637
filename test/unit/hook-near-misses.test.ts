/**
 * The misspellings `ToolHook` rejects in the types (src/hook-near-misses.ts), checked by the type checker
 * (`npm run typecheck` covers the tests): each `@ts-expect-error` below fails the typecheck if the type
 * stops rejecting it. The runner catches the same mistakes at run time (test/unit/runner/misuse.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../src/index.js';

describe('HookNearMisses in the types', () => {
  it('a class instance with a misspelt hook method or option is not a ToolHook; the right names are', () => {
    class Misspelt {
      beforeToolCall(): undefined {
        return undefined;
      }
    }
    class WrongOption {
      failuremode = 'closed';
      beforeTool(): undefined {
        return undefined;
      }
    }
    class Right {
      failureMode = 'closed' as const;
      beforeTool(): undefined {
        return undefined;
      }
    }
    // @ts-expect-error beforeToolCall is a misspelling of beforeTool
    const misspelt: ToolHook = new Misspelt();
    // @ts-expect-error failuremode is a misspelling of failureMode
    const wrongOption: ToolHook = new WrongOption();
    const right: ToolHook = new Right();
    expect([misspelt, wrongOption, right]).toHaveLength(3);
  });
});
