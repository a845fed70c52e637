/**
 * startTelemetry({ eventBridge: true }) in a real process with the SDK it starts: decision records
 * written as log events show on their phase spans in the printed tree, as they would in Jaeger; without
 * the bridge they do not (they went to the logs pipeline only).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/event-bridge-app.ts', import.meta.url));

async function run(bridge: boolean): Promise<string> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OTEL_')) env[name] = value;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', APP], { cwd: ROOT, env: { ...env, BRIDGE: bridge ? '1' : '0', NO_COLOR: '1' }, timeout: 60_000 });
  return stdout;
}

describe('startTelemetry({ eventBridge: true })', () => {
  it('puts log-event decision records on their phase spans', async () => {
    const bridged = await run(true);
    expect(bridged).toContain('toolhooks.before_tool');
    expect(bridged).toMatch(/policy: abort "no shell here"/);
    const plain = await run(false);
    expect(plain).toContain('toolhooks.before_tool');
    expect(plain).not.toMatch(/policy: abort "no shell here"/);
  });
});
