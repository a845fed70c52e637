/**
 * Cost of capture.serialize per tool call, against plain JSON.stringify (which neither redacts nor
 * bounds). Run: npx tsx bench/capture.bench.ts
 */
import { resolveCapture } from '../src/telemetry/capture/options.js';

const typicalArgs = {
  path: '/home/dev/project/src/services/billing/invoice-renderer.ts',
  content: 'export function render(invoice: Invoice): string {\n  return template(invoice);\n}\n'.repeat(6),
  options: { encoding: 'utf8', overwrite: true, mode: 420, createParents: false },
  tags: ['refactor', 'billing', 'typescript', 'agent-edit'],
  meta: {
    requestId: '6f1c2f9e-6a77-4d5c-9d0e-0c1b2a3d4e5f',
    attempt: 1,
    startedAt: '2026-05-01T10:00:00.000Z',
    headers: { 'content-type': 'application/json', authorization: 'Bearer abcdef0123456789', 'x-trace': 'on' },
  },
};

function measure(label: string, fn: () => unknown, iterations = 200_000): void {
  for (let i = 0; i < 10_000; i += 1) fn(); // warm-up: let the JIT settle
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) fn();
  const micros = Number(process.hrtime.bigint() - started) / 1000 / iterations;
  console.log(`${label.padEnd(44)} ${micros.toFixed(2)} µs/op`);
}

const capture = resolveCapture({ args: true });
const withExtra = resolveCapture({ args: true, redactKeys: ['ssn', /^x-internal-/i] });
console.log(`args JSON size: ${JSON.stringify(typicalArgs).length} chars`);
measure('JSON.stringify (baseline, no redaction)', () => JSON.stringify(typicalArgs));
measure('capture.serialize (defaults)', () => capture.serialize(typicalArgs));
measure('capture.serialize (+ string and RegExp keys)', () => withExtra.serialize(typicalArgs));
const huge = Array.from({ length: 1_000_000 }, (_, i) => ({ id: i, name: `item ${i}` }));
measure('capture.serialize (1M-item array, bounded)', () => capture.serialize(huge), 2_000);
measure('capture.limit (10 KB reason)', () => capture.limit('r'.repeat(10_000)));

// Redaction matching on attacker-made keys: a 10 MB key must cost about 10× a 1 MB key (linear), for
// the shapes closest to the built-in patterns and words (long runs of their prefixes that never match).
const keyShapes = ['a', 'pas', 'sessio', 'au', 'basic_', 'x-', 'connection_', 'access-', 'private-', 'aB', 'p_'];
function keyMatchMs(length: number): number {
  let total = 0;
  for (const shape of keyShapes) {
    const key = shape.repeat(Math.ceil(length / shape.length)).slice(0, length);
    const started = process.hrtime.bigint();
    capture.isRedactedKey(key);
    total += Number(process.hrtime.bigint() - started) / 1e6;
  }
  return total;
}
keyMatchMs(1_000_000); // warm-up
const oneMb = keyMatchMs(1_000_000);
const tenMb = keyMatchMs(10_000_000);
console.log(`redaction match, ${keyShapes.length} key shapes: 1 MB ${oneMb.toFixed(1)} ms, 10 MB ${tenMb.toFixed(1)} ms, ratio ${(tenMb / oneMb).toFixed(1)}× (linear ≈ 10×)`);
