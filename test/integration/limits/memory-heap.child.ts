/**
 * Sends 1 million distinct keys through a limit hook on the default memory store (maxKeys 100,000) and
 * prints the heap after a full GC, before and after, with the store's size and eviction count. Run by
 * memory-heap.test.ts with --expose-gc.
 */
import { limitHook, memoryLimitStore } from '../../../src/limits/index.js';
import type { HookContext } from '../../../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
process.removeAllListeners('warning');
process.on('warning', () => undefined); // the eviction warning is expected here

const store = memoryLimitStore();
const hook = limitHook<{ user: string }>({ name: 'per_user', limit: 5, windowMs: 60_000, key: (_t, _a, s) => s.user, store });
const ctx = {} as HookContext;
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 1_000_000; i += 1) hook.beforeTool?.('search', {}, { user: `user-${i}-${'x'.repeat(i % 64)}` }, ctx);
gc();
const after = process.memoryUsage().heapUsed;
process.stdout.write(`${JSON.stringify({ growthBytes: after - before, size: store.size, evicted: store.evicted })}\n`);
