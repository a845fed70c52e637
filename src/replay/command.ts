/**
 * The `toolhooks` command line: `toolhooks replay [--json] [--fail-on-change] --hooks MODULE SOURCE`.
 * The whole output is built before anything is written, so a failure never leaves half a report.
 * @internal
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage } from '../internal/describe.js';
import { formatReplayJson, formatReplayTable } from './format.js';
import { loadHooksModule } from './hooks-module.js';
import { oneLine, ReplayInputError } from './input-error.js';
import { replay } from './replay.js';
import { isUrlSource } from './source.js';

/** Exit codes: nothing changed (or no --fail-on-change), something changed, bad input. */
export const EXIT_OK = 0;
export const EXIT_CHANGED = 1;
export const EXIT_BAD_INPUT = 2;

/** What the command reads and writes; the bin passes the process's own. */
export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `Usage: toolhooks replay [--json] [--fail-on-change] --hooks MODULE SOURCE

Runs the hooks that MODULE default-exports (an array of hooks or a HookRunner) against the tool calls
recorded in SOURCE (an OTLP/JSON file, one object per line, an http(s) URL, a Jaeger /api/v3/traces
response, or - for standard input) and lists the calls whose decision changed. No tool is run.

  --hooks MODULE     the policy module, resolved from the current directory
  --json             print one JSON object instead of a table
  --fail-on-change   exit 1 when any decision changed
  -h, --help         show this help

Exit codes: 0 done, 1 changed (with --fail-on-change), 2 bad input. See docs/replay.md.
`;

/**
 * Runs the command; resolves to the exit code. Never throws: every failure is one line on stderr and
 * exit code 2.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (text: string): number => {
    io.stderr(`toolhooks: ${oneLine(text)}\n`);
    return EXIT_BAD_INPUT;
  };
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (command !== 'replay') {
    return fail(command === undefined ? 'missing command; try: toolhooks replay --help' : `unknown command "${command}"; try: toolhooks replay --help`);
  }
  let values: { hooks?: string; json?: boolean; 'fail-on-change'?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      allowPositionals: true,
      strict: true,
      options: {
        hooks: { type: 'string' },
        json: { type: 'boolean' },
        'fail-on-change': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return fail(`replay: ${errorMessage(error)}; try: toolhooks replay --help`);
  }
  if (values.help === true) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (values.hooks === undefined || values.hooks === '') return fail('replay: --hooks MODULE is required');
  if (positionals.length !== 1) {
    return fail(`replay: expected one SOURCE (file, http(s) URL or -), got ${positionals.length}`);
  }
  let output: string;
  let changed: boolean;
  try {
    const hooks = await loadHooksModule(values.hooks, io.cwd);
    const source = positionals[0] as string;
    const report = await replay({ hooks, source: isUrlSource(source) || source === '-' ? source : resolve(io.cwd, source) });
    output = values.json === true ? formatReplayJson(report) : formatReplayTable(report);
    changed = report.changed.length > 0;
  } catch (error) {
    if (error instanceof ReplayInputError) return fail(`replay: ${error.message}`);
    return fail(`replay failed: ${errorMessage(error)}`);
  }
  io.stdout(output);
  return changed && values['fail-on-change'] === true ? EXIT_CHANGED : EXIT_OK;
}
