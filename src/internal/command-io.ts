/**
 * What one `toolhooks` command (`replay`, `verify`) reads and writes, and how each reads its words. The CLI
 * (`src/cli/`) builds the {@link CommandIo} from the process's streams and words every failure and warning
 * the same way for every command.
 * @internal
 */
import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';
import { errorMessage } from './describe.js';

export interface CommandIo {
  /** The directory relative paths are resolved from. */
  readonly cwd: string;
  /** The command's output (a report, a table, JSON, its usage). */
  readonly stdout: (text: string) => void;
  /** One line that says why the command failed, written as `toolhooks: <line>` (bounded, escaped). */
  readonly fail: (line: string) => void;
  /** One line that warns, written as `toolhooks: warning: <line>` (bounded, escaped). */
  readonly warn: (line: string) => void;
}

/** Exit codes every command shares: done (or its help shown), bad input. */
export const EXIT_OK = 0;
export const EXIT_BAD_INPUT = 2;

/**
 * Reads `argv` (the words after the command's name) against `options` (strict, positionals allowed; every
 * command has `-h`/`--help`, added here). Returns the words read, or the exit code when the command is
 * done already: {@link EXIT_OK} after writing `usage` for `--help`, {@link EXIT_BAD_INPUT} after one
 * failure line naming the command and its `--help`.
 */
export function readCommandArgs<V>(
  command: string,
  argv: readonly string[],
  options: ParseArgsOptionsConfig,
  usage: string,
  io: CommandIo,
): { readonly values: V; readonly positionals: readonly string[] } | number {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    io.fail(`${command}: ${errorMessage(error)}; try: toolhooks ${command} --help`);
    return EXIT_BAD_INPUT;
  }
  if (parsed.values['help'] === true) {
    io.stdout(usage);
    return EXIT_OK;
  }
  return { values: parsed.values as V, positionals: parsed.positionals };
}
