/**
 * Jaeger down and restarted in the middle of a run: an app keeps making tool calls while the real Jaeger is
 * killed and started again on the same ports. The calls give the same results without errors, and what is
 * recorded after Jaeger is back reaches it (memory storage loses what it held before; that is expected).
 */
import { describe, expect, it } from 'vitest';
import { requireJaeger, startJaeger, tagsOf, type RunningJaeger } from '../../support/jaeger.js';
import { CALLS, startApp } from './fixtures/app-driver.js';

const SERVICE = 'toolhooks-restart-fixture';

async function callIdsIn(jaeger: RunningJaeger, prefix: string): Promise<string[]> {
  const traces = await jaeger.findTraces({ service: SERVICE, operation: 'execute_tool lookup' });
  return traces
    .map((trace) => String(tagsOf(trace.spans.find((s) => s.references.length === 0)?.tags ?? [])['gen_ai.tool.call.id']))
    .filter((id) => id.startsWith(`${prefix}_`));
}

describe('Jaeger killed, restarted or hung during a run (the real binary)', () => {
  it('tool calls are unaffected and traces recorded after the restart reach Jaeger', { timeout: 120_000 }, async (ctx) => {
    const binary = requireJaeger(ctx);
    let jaeger = await startJaeger({ binary });
    const app = startApp(jaeger.otlpHttpUrl, SERVICE);
    try {
      const before = await app.run('before');
      expect(before.unexpected).toEqual([]);
      expect(before.results).toHaveLength(CALLS);
      await jaeger.waitFor('the calls made before the kill', async () => (await callIdsIn(jaeger, 'before')).length === CALLS);

      await jaeger.kill();
      const down = await app.run('down');
      expect(down.unexpected).toEqual([]);
      expect(down.results).toEqual(before.results);

      jaeger = await startJaeger({ binary, ports: jaeger.ports });
      const after = await app.run('after');
      expect(after.unexpected).toEqual([]);
      expect(after.results).toEqual(before.results);
      const arrived = jaeger;
      await arrived.waitFor('every call made after the restart', async () => (await callIdsIn(arrived, 'after')).length === CALLS);
      // The restarted Jaeger starts empty (memory storage): the first batch is gone, as documented.
      expect(await callIdsIn(arrived, 'before')).toEqual([]);
      const lateDown = (await callIdsIn(arrived, 'down')).length;
      console.log(
        `jaeger restart: ${CALLS} calls per batch took ${before.ms.toFixed(0)} ms (up), ${down.ms.toFixed(0)} ms (down),` +
          ` ${after.ms.toFixed(0)} ms (restarted); ${lateDown} of the calls made while down reached the new Jaeger`,
      );

      const { code, stderr } = await app.exit();
      expect(code, stderr).toBe(0);
    } finally {
      await app.exit().catch(() => undefined);
      await jaeger.stop();
    }
  });

  it('a hung Jaeger (stopped, not answering) does not touch the tool calls, and traces flow again once it answers', { timeout: 120_000 }, async (ctx) => {
    const jaeger = await startJaeger({ binary: requireJaeger(ctx) });
    const app = startApp(jaeger.otlpHttpUrl, SERVICE);
    try {
      const before = await app.run('before');
      expect(before.unexpected).toEqual([]);
      jaeger.pause();
      // The flush at the end of this batch waits for the export timeout (2 s here), then gives up.
      const hung = await app.run('hung');
      expect(hung.unexpected).toEqual([]);
      expect(hung.results).toEqual(before.results);
      jaeger.resume();
      const after = await app.run('after');
      expect(after.unexpected).toEqual([]);
      expect(after.results).toEqual(before.results);
      await jaeger.waitFor('every call made after Jaeger answered again', async () => (await callIdsIn(jaeger, 'after')).length === CALLS);
      expect(await callIdsIn(jaeger, 'before')).toHaveLength(CALLS);
      console.log(
        `jaeger hung: ${CALLS} calls per batch took ${before.ms.toFixed(0)} ms (answering), ${hung.ms.toFixed(0)} ms (hung),` +
          ` ${after.ms.toFixed(0)} ms (answering again); ${(await callIdsIn(jaeger, 'hung')).length} of the calls made while hung arrived late`,
      );
      const { code, stderr } = await app.exit();
      expect(code, stderr).toBe(0);
    } finally {
      await app.exit().catch(() => undefined);
      await jaeger.stop();
    }
  });
});
