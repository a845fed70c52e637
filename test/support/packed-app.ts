/**
 * The published package as a user gets it: `npm pack` the repository, then install the tarball with
 * `@opentelemetry/sdk-node` (what `toolhooks/node` runs on; it brings `@opentelemetry/api`, the one peer every
 * entry needs), as the README says, into an empty project in a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, '../..');

/** An empty project with the packed package installed. */
export interface PackedApp {
  /** The temporary folder holding the tarball and the project. */
  readonly work: string;
  /** The project folder (its `node_modules/toolhooks` is exactly what the tarball holds). */
  readonly app: string;
  readonly tarball: string;
  /** Deletes the temporary folder. */
  remove(): void;
}

/**
 * `name@version` for each package, at the version the repository's own devDependencies installed (so a
 * test installs exactly what the repository is tested with); throws for a package that is not one.
 */
export function pinnedDevDependencies(names: readonly string[]): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  return names.map((name) => {
    if (manifest.devDependencies?.[name] === undefined) throw new Error(`${name} is not a devDependency of the repository`);
    const installed = JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    return `${name}@${installed.version}`;
  });
}

/** Runs a program and returns its stdout; throws with its stderr when it exits non-zero. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', ...env },
  });
}

/**
 * Packs the repository (running its `prepack` build) and installs the tarball into an empty project,
 * with `extra` packages (`name@version`) in the same npm command.
 */
export function packAndInstall(prefix: string, extra: readonly string[] = []): PackedApp {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const app = join(work, 'app');
  run('npm', ['pack', '--pack-destination', work], repoRoot);
  const file = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (file === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
  const tarball = join(work, file);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, '@opentelemetry/sdk-node@^0.301.0', ...extra], app);
  return { work, app, tarball, remove: () => rmSync(work, { recursive: true, force: true }) };
}
