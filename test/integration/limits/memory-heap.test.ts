/**
 * The memory store is bounded: 1 million distinct keys through a limit hook keep the heap under a stated
 * bound (maxKeys 100,000 windows held; the rest evicted, counted). A child process, so the heap measured
 * is the store's alone.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The stated bound, with the default maxKeys (100,000 keys of up to 90 characters, each with a one-take
 * window): 80 MB. Measured on Node 22: about 49 MB (some 500 bytes per held key, the key included).
 */
const MAX_HEAP_GROWTH_BYTES = 80 * 1024 * 1024;

describe('memoryLimitStore under 1 million distinct keys', () => {
  it(`holds maxKeys keys, evicts the rest, and the heap grows less than ${MAX_HEAP_GROWTH_BYTES / 1024 / 1024} MB`, { timeout: 300_000 }, () => {
    const child = fileURLToPath(new URL('./memory-heap.child.ts', import.meta.url));
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child], {
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      encoding: 'utf8',
      timeout: 290_000,
    });
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { growthBytes: number; size: number; evicted: number };
    expect(result.size).toBe(100_000);
    expect(result.evicted).toBe(900_000);
    expect(result.growthBytes).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
    console.log(`memoryLimitStore: 1,000,000 keys → heap growth ${(result.growthBytes / 1024 / 1024).toFixed(1)} MB`);
  });
});
