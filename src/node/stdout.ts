/**
 * Waiting for what was written to stdout (and stderr) to leave the process. On Linux a pipe (`node app | tee log`, a
 * test harness, a container's log driver) is written asynchronously: `process.exit()` right after
 * printing loses whatever is still buffered. The console exporters wait for this in flush and shutdown.
 * @internal
 */

/**
 * Resolves once everything written to `process.stdout` so far has been handed to the OS (an empty write
 * completes after the writes before it); at once when nothing is buffered or stdout is closed. Never
 * rejects.
 *
 * @example
 * ```ts
 * process.stdout.write(tree);
 * await stdoutFlushed(); // now process.exit() keeps the tree
 * ```
 */
export function stdoutFlushed(): Promise<void> {
  return flushed(process.stdout);
}

/**
 * Resolves once process warnings emitted so far (Node prints them on a later tick) and everything written
 * to stdout and stderr have left the process. Never rejects.
 */
export async function outputFlushed(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
}

function flushed(stdout: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    try {
      // Nothing buffered (a synchronous write, or a stream replaced for a test): nothing to wait for.
      if (stdout.destroyed || stdout.writableEnded || stdout.writableLength === 0) {
        resolve();
        return;
      }
      stdout.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}
