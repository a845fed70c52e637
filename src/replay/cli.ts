#!/usr/bin/env node
/**
 * The `toolhooks` bin. Writes the whole output, then exits with the command's code even when a hooks
 * module left timers or sockets open (a policy module that starts telemetry, say).
 * @internal
 */
import { resolve } from 'node:path';
import { runCli } from './command.js';

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
