#!/usr/bin/env node
/**
 * The `toolhooks` bin (commands.ts). Writes the whole output, then exits with the command's code even when a hooks
 * module left timers or sockets open (a policy module that starts telemetry, say).
 * @internal
 */
import { resolve } from 'node:path';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { runCli } from './commands.js';

// The report names every hook failure of the replay itself; the runner's diag warnings (and the
// first-failure process warning they stand in for) would only repeat it on stderr.
diag.setLogger(
  { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined },
  { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true },
);

let out = '';
let err = '';
void runCli(process.argv.slice(2), {
  cwd: resolve('.'),
  stdout: (text) => {
    out += text;
  },
  stderr: (text) => {
    err += text;
  },
}).then((code) => {
  process.stderr.write(err);
  process.stdout.write(out, () => process.exit(code));
});
