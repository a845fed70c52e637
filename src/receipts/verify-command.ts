/**
 * `toolhooks verify [--public-key PEM] [--json] FILE`, as the CLI (`src/cli/`) runs it: runs
 * {@link verifyReceipts} and prints what it found.
 * Exit codes: 0 intact (a torn last line is one warning line on stderr), 1 tampered, 2 bad input (no such
 * file, a key that is not an Ed25519 PEM, a file with no receipt in it, bad arguments).
 * @internal
 */
import { resolve } from 'node:path';
import type { CommandIo } from '../internal/command-io.js';
import { EXIT_BAD_INPUT, EXIT_OK, readCommandArgs } from '../internal/command-io.js';
import { errorMessage } from '../internal/describe.js';
import { verifyReceipts } from './verify.js';
import type { VerifyReceiptsResult } from './types.js';

/** Exit codes besides the shared ones (done = intact, bad input): tampered. */
const EXIT_TAMPERED = 1;

export const VERIFY_USAGE = `Usage: toolhooks verify [--public-key PEM] [--json] FILE

Checks a receipt file written by toolhooks/receipts (JSON Lines): each record's hash, each stream's
chain (edited, missing, reordered and inserted records), and the signed heads, with their Ed25519
signatures when a public key is given. The file is streamed: any size, bounded memory.

  --public-key PEM   the PEM file of the Ed25519 public key the heads were signed with
  --json             print one JSON object instead of a report
  -h, --help         show this help

Exit codes: 0 intact (a torn last line, left by a crash mid-write, is a warning), 1 tampered,
2 bad input (no such file, a bad key, no receipt in the file). See docs/receipts.md.
`;

const VERIFY_OPTIONS = { 'public-key': { type: 'string' }, json: { type: 'boolean' } } as const;

/** Runs the command; resolves to the exit code. Never throws. */
export async function runVerify(argv: readonly string[], io: CommandIo): Promise<number> {
  const read = readCommandArgs<{ 'public-key'?: string; json?: boolean }>('verify', argv, VERIFY_OPTIONS, VERIFY_USAGE, io);
  if (typeof read === 'number') return read;
  const { values, positionals } = read;
  if (positionals.length !== 1) {
    io.fail(`verify: expected one FILE, got ${positionals.length}; try: toolhooks verify --help`);
    return EXIT_BAD_INPUT;
  }
  const file = positionals[0] as string;
  const keyFile = values['public-key'];
  if (keyFile === '') {
    io.fail('verify: --public-key needs the path of a PEM file');
    return EXIT_BAD_INPUT;
  }
  let result: VerifyReceiptsResult;
  try {
    // A key is always a file here: PEM text on the command line would be read as a path anyway.
    result = await verifyReceipts(resolve(io.cwd, file), keyFile === undefined ? undefined : { publicKey: resolve(io.cwd, keyFile) });
  } catch (error) {
    io.fail(`verify: ${errorMessage(error)}`);
    return EXIT_BAD_INPUT;
  }
  if (result.records + result.heads === 0) {
    const first = result.problems[0];
    io.fail(`verify: no receipt in ${file}${first === undefined ? ' (the file is empty)' : `: ${first.message}`}`);
    return EXIT_BAD_INPUT;
  }
  for (const problem of result.problems) {
    if (problem.kind === 'torn_tail') io.warn(`verify: ${file}: ${problem.message}; not tampering, the records before it verify`);
  }
  io.stdout(values.json === true ? `${JSON.stringify(result)}\n` : report(file, result, keyFile !== undefined));
  return result.ok ? EXIT_OK : EXIT_TAMPERED;
}

function report(file: string, result: VerifyReceiptsResult, keyed: boolean): string {
  const signatures = keyed ? `, ${result.signaturesChecked} signature(s) checked` : result.heads > 0 ? ', signatures not checked (no --public-key)' : '';
  const summary = `${result.records} record(s) in ${result.streams} stream(s), ${result.heads} head(s)${signatures}`;
  const problems = result.problems.filter((problem) => problem.kind !== 'torn_tail');
  if (problems.length === 0) return `${file}: intact: ${summary}\n`;
  const lines = problems.map((problem) => {
    const where = problem.stream === '' ? '' : ` stream ${problem.stream} seq ${problem.seq}`;
    const line = problem.line === undefined ? '' : ` (line ${problem.line})`;
    return `  ${problem.kind}${where}${line}: ${problem.message}`;
  });
  return `${file}: TAMPERED: ${problems.length} problem(s); ${summary}\n${lines.join('\n')}\n`;
}
