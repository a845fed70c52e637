/**
 * The `toolhooks` command line: `toolhooks replay …` (src/replay/replay-command.ts) and `toolhooks verify …`
 * (src/receipts/verify-command.ts), with `--help` and `--version`. Every command writes through one
 * {@link CommandIo}, so each failure is one bounded, escaped line on stderr, worded the same way.
 * @internal
 */
import type { CommandIo } from '../internal/command-io.js';
import { EXIT_BAD_INPUT, EXIT_OK } from '../internal/command-io.js';
import { VERIFY_USAGE, runVerify } from '../receipts/verify-command.js';
import { MAX_MESSAGE_LENGTH } from '../replay/input-error.js';
import { REPLAY_USAGE, runReplay } from '../replay/replay-command.js';
import { oneLine } from '../telemetry/capture/sanitize.js';
import { VERSION } from '../version.js';

/** What the command line reads and writes; the bin passes the process's own. */
interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * Runs the command named by `argv[0]`; resolves to its exit code. Never throws: every failure is one
 * line on stderr and exit code 2 (a command's own codes are in its usage).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const commandIo: CommandIo = {
    cwd: io.cwd,
    stdout: io.stdout,
    fail: (line) => io.stderr(`toolhooks: ${oneLine(line, MAX_MESSAGE_LENGTH)}\n`),
    warn: (line) => io.stderr(`toolhooks: warning: ${oneLine(line, MAX_MESSAGE_LENGTH)}\n`),
  };
  const [command, ...rest] = argv;
  switch (command) {
    case '-h':
    case '--help':
    case 'help':
      io.stdout(`${REPLAY_USAGE}\n${VERIFY_USAGE}`);
      return EXIT_OK;
    case '-V':
    case '--version':
    case 'version':
      io.stdout(`${VERSION}\n`);
      return EXIT_OK;
    case 'replay':
      return runReplay(rest, commandIo);
    case 'verify':
      return runVerify(rest, commandIo);
    default:
      commandIo.fail(
        command === undefined ? 'missing command; try: toolhooks replay --help' : `unknown command "${command}"; try: toolhooks replay --help or toolhooks verify --help`,
      );
      return EXIT_BAD_INPUT;
  }
}
