/**
 * What one `toolhooks` command (`replay`, `verify`) reads and writes. The CLI (`src/cli/`) builds it
 * from the process's streams and words every failure and warning the same way for every command.
 * @internal
 */
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
