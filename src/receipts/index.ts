/**
 * toolhooks/receipts — a tamper-evident record of every decision, bound to its trace and verifiable
 * offline: {@link receiptHook} writes one chained record per decision, approval and call outcome (signed
 * heads with an Ed25519 key), {@link fileReceiptSink} appends them to a JSON Lines file, and
 * {@link verifyReceipts} (or `toolhooks verify FILE`) checks a file. See docs/receipts.md.
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { fileReceiptSink, receiptHook, verifyReceipts } from 'toolhooks/receipts';
 *
 * const receipts = receiptHook({ sink: fileReceiptSink('receipts.jsonl'), signingKey: './receipts-key.pem' });
 * const runner = new HookRunner([policy, receipts]);
 * // … calls …
 * await receipts.close();
 * const { ok, problems } = await verifyReceipts('receipts.jsonl', { publicKey: './receipts-key.pub.pem' });
 * ```
 * @packageDocumentation
 */
export { receiptHook } from './receipt-hook.js';
export { fileReceiptSink } from './file-sink.js';
export { verifyReceipts } from './verify.js';
export type {
  FileReceiptSinkOptions,
  ReceiptHead,
  ReceiptHook,
  ReceiptHookOptions,
  ReceiptProblem,
  ReceiptRecord,
  ReceiptSink,
  VerifyReceiptsOptions,
  VerifyReceiptsResult,
} from './types.js';
