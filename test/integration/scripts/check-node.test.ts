/**
 * scripts/check-node.cjs and package.json's devEngines: on a Node.js older than 22.15, `npm install`,
 * `npm run demo` and `npm test` in a clone stop at once, naming the version found and the one needed;
 * the script's own line also names the command that installs Node 22. Run for real with the machine's
 * older Node when it has one (`OLD_NODE`, else /usr/bin/node when it is older than 22.15).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../support/temp-dir.js';

const root = resolve(import.meta.dirname, '../../..');
const script = join(root, 'scripts/check-node.cjs');
const { check, needed, INSTALL } = createRequire(import.meta.url)(script) as {
  check(found: string, need: readonly number[]): string | undefined;
  needed(root: string): readonly number[];
  INSTALL: string;
};

/** A Node.js older than 22.15 on this machine, with its version, or undefined. */
function olderNode(): { node: string; version: string } | undefined {
  const candidate = process.env['OLD_NODE'] ?? '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
  return check(version, needed(root)) === undefined ? undefined : { node: candidate, version };
}
const older = olderNode();
const SKIP = 'no Node.js older than 22.15 here: set OLD_NODE=/path/to/node (e.g. Node 20) to run it';

describe('the Node.js version check', () => {
  it('reads the version needed from package.json engines', () => {
    expect(needed(root)).toEqual([22, 15, 0]);
  });

  it.each(['v18.20.4', 'v20.19.0', 'v21.7.3', 'v22.14.0'])('turns %s away in one line naming both versions and the fix', (found) => {
    const line = check(found, [22, 15, 0]);
    expect(line).toContain('needs Node.js 22.15 or newer');
    expect(line).toContain(`this is Node.js ${found.slice(1)}`);
    expect(line).toContain(INSTALL);
    expect(line).not.toContain('\n');
  });

  it.each(['v22.15.0', 'v22.23.5', 'v24.0.0', 'v26.1.0'])('lets %s through', (found) => {
    expect(check(found, [22, 15, 0])).toBeUndefined();
  });

  it.skipIf(older === undefined)(`stops at once on an older Node (${older?.version ?? SKIP})`, () => {
    const result = spawnSync(older!.node, [script], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `toolhooks needs Node.js 22.15 or newer; this is Node.js ${older!.version.slice(1)} (${older!.node}). Get it with: ${INSTALL}`,
    ]);
  });

  const dir = useTempDir('check-node');
  const olderNpm = older === undefined ? undefined : join(dirname(older.node), 'npm');
  it.skipIf(olderNpm === undefined || !existsSync(olderNpm))('stops npm install, npm run demo and npm test in a clone on an older Node', () => {
    // A clone as far as npm's checks go: package.json and the script, nothing installed.
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    copyFileSync(script, join(dir, 'scripts/check-node.cjs'));
    const env = { ...process.env, PATH: `${dirname(older!.node)}:/usr/bin:/bin`, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    for (const args of [['install'], ['run', 'demo'], ['test']]) {
      const result = spawnSync(olderNpm!, args, { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      const output = result.stdout + result.stderr;
      expect(result.status, output).not.toBe(0);
      // npm >= 10.9 stops on devEngines before anything runs; older npms run the pre-scripts' one line.
      expect(output).toMatch(new RegExp(`${older!.version.replace(/\./g, '\\.')}|${older!.version.slice(1).replace(/\./g, '\\.')}`));
      expect(output).toMatch(/22\.15/);
      expect(existsSync(join(dir, 'node_modules')), `npm ${args.join(' ')} installed something`).toBe(false);
    }
  });

  it.skipIf(olderNpm === undefined || !existsSync(olderNpm))('lets the fix it names run in that clone: scripts/install-node.sh answers with Node 22 on the older Node', () => {
    // The README's first command, in the clone, before Node 22 is on PATH. npm must not be asked from the
    // project folder there: its devEngines would stop the very command that installs Node 22.
    const env = { ...process.env, PATH: `${dirname(older!.node)}:/usr/bin:/bin`, npm_config_update_notifier: 'false' };
    const result = spawnSync('bash', [join(root, 'scripts/install-node.sh'), '22'], { cwd: root, env, encoding: 'utf8', timeout: 300_000 });
    expect(result.status, result.stderr).toBe(0);
    const bin = result.stdout.trim();
    expect(execFileSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
  });
});
