/**
 * `toolhooks replay [--json] [--fail-on change|loosened] --hooks MODULE SOURCE`, as the CLI
 * (`src/cli/`) runs it. The whole output is built before anything is written, so a failure never
 * leaves half a report.
 * @internal
 */
import { resolve } from 'node:path';
import { errorMessage } from '../internal/describe.js';
import { VERSION } from '../version.js';
import type { CommandIo } from '../internal/command-io.js';
import { EXIT_BAD_INPUT, EXIT_OK, readCommandArgs } from '../internal/command-io.js';
import { formatReplayJson, formatReplayTable } from './format.js';
import { loadHooksModule } from './hooks-module.js';
import { ReplayInputError } from './input-error.js';
import { replay } from './replay.js';
import { isUrlSource } from './source.js';
import type { ReplayReport } from './types.js';

/** Exit code besides the shared ones (done, bad input): what --fail-on names happened. */
const EXIT_CHANGED = 1;

/** What `--fail-on` can gate on: any changed decision, or a loosened one. */
type FailOn = 'change' | 'loosened';

export const REPLAY_USAGE = `Usage: toolhooks replay [--json] [--fail-on change|loosened] [--max-bytes N] --hooks MODULE SOURCE

Runs the hooks that MODULE default-exports (an array of hooks or a HookRunner) against the tool calls
recorded in SOURCE (an OTLP/JSON file, one object per line, an http(s) URL, a Jaeger /api/v3/traces
response, or - for standard input) and lists the calls whose decision changed, with a count per flip
of the before_tool decision (abort→continue, continue→ask, ...). No tool is run.

  --hooks MODULE     the policy module, resolved from the current directory
  --json             print one JSON object instead of a table
  --fail-on change   exit 1 when any decision changed, 2 when no call could be replayed
  --fail-on loosened exit 1 when a call recorded as stopped (abort, skip, ask) would now continue
                     or redirect, 2 when no call could be replayed
  --fail-on-change   the same as --fail-on change
  --max-bytes N      read at most N bytes of SOURCE (suffix K, M or G for KiB, MiB, GiB);
                     default 256M
  -h, --help         show this help
  -V, --version      print the version

Exit codes: 0 done, 1 what --fail-on names happened, 2 bad input or, with --fail-on, nothing
replayable. See docs/replay.md.
`;

const REPLAY_OPTIONS = {
  hooks: { type: 'string' },
  json: { type: 'boolean' },
  'fail-on': { type: 'string' },
  'fail-on-change': { type: 'boolean' },
  'max-bytes': { type: 'string' },
  version: { type: 'boolean', short: 'V' },
} as const;

/**
 * `toolhooks replay …`: runs the command on `argv` (the words after `replay`); resolves to the exit code.
 * Never throws: every failure is one line through `io.fail` and exit code 2.
 */
export async function runReplay(argv: readonly string[], io: CommandIo): Promise<number> {
  const fail = (line: string): number => {
    io.fail(line);
    return EXIT_BAD_INPUT;
  };
  const read = readCommandArgs<{ hooks?: string; json?: boolean; 'fail-on'?: string; 'fail-on-change'?: boolean; 'max-bytes'?: string; version?: boolean }>(
    'replay',
    argv,
    REPLAY_OPTIONS,
    REPLAY_USAGE,
    io,
  );
  if (typeof read === 'number') return read;
  const { values, positionals } = read;
  if (values.version === true) {
    io.stdout(`${VERSION}\n`);
    return EXIT_OK;
  }
  if (values.hooks === undefined || values.hooks === '') return fail('replay: --hooks MODULE is required');
  if (positionals.length !== 1) {
    return fail(`replay: expected one SOURCE (file, http(s) URL or -), got ${positionals.length}`);
  }
  const maxSourceBytes = values['max-bytes'] === undefined ? undefined : parseByteCount(values['max-bytes']);
  if (maxSourceBytes === null) {
    return fail(`replay: --max-bytes takes a number of bytes, optionally with K, M or G (such as 512M), got ${JSON.stringify(values['max-bytes'])}`);
  }
  const failOn = readFailOn(values['fail-on'], values['fail-on-change'] === true);
  if (typeof failOn === 'string' && failOn.startsWith('replay:')) return fail(failOn);
  let output: string;
  let report: ReplayReport;
  try {
    const hooks = await loadHooksModule(values.hooks, io.cwd);
    const source = positionals[0] as string;
    report = await replay({
      hooks,
      source: isUrlSource(source) || source === '-' ? source : resolve(io.cwd, source),
      ...(maxSourceBytes === undefined ? {} : { maxSourceBytes }),
    });
    output = values.json === true ? formatReplayJson(report) : formatReplayTable(report);
  } catch (error) {
    if (error instanceof ReplayInputError) return fail(`replay: ${error.message}`);
    return fail(`replay failed: ${errorMessage(error)}`);
  }
  // A gate that checked nothing must not pass: no replayable call is bad input, not "no change".
  if (failOn !== undefined && report.replayed === 0) {
    const found =
      report.calls === 0
        ? 'no recorded tool calls (execute_tool spans)'
        : `${report.calls} recorded tool calls, none with captured arguments (record with capture: { args: true })`;
    return fail(`replay: nothing to replay in ${positionals[0] as string}: ${found}; --fail-on ${failOn} needs traffic`);
  }
  io.stdout(output);
  if (failOn === 'change') return report.changed.length > 0 ? EXIT_CHANGED : EXIT_OK;
  if (failOn === 'loosened') return report.loosened > 0 ? EXIT_CHANGED : EXIT_OK;
  return EXIT_OK;
}

/** `--fail-on`'s value (`--fail-on-change` is `--fail-on change`); a `replay: …` message when it is not one. */
function readFailOn(value: string | undefined, onChange: boolean): FailOn | `replay: ${string}` | undefined {
  if (value === undefined) return onChange ? 'change' : undefined;
  if (value !== 'change' && value !== 'loosened') return `replay: --fail-on takes change or loosened, got ${JSON.stringify(value)}`;
  if (onChange && value !== 'change') return 'replay: --fail-on-change is --fail-on change; give one --fail-on';
  return value;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `512`, `64K`, `512M`, `2G` (1024-based) as bytes; null when not such a count or below 1. */
function parseByteCount(text: string): number | null {
  const match = /^(\d+)([kmg]?)$/i.exec(text.trim());
  if (match === null) return null;
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : null;
}
