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
