/**
 * docs/telemetry.md's query for "every call a given policy denied", against the real Jaeger: a policy hook's
 * decisions are exported over OTLP, and Jaeger's /api/traces finds the denied calls by the policy ids
 * (a string array, kept as its JSON text) and the decision, which sit on the phase span's decision event.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { cedarPolicy, policyHook } from '../../../src/policy/index.js';
import { requireJaeger, startJaeger, tagsOf } from '../../support/jaeger.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';

const POLICIES = `
@id("no-rm") forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "*rm -rf*" };
@id("no-sudo") forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "sudo *" };
@id("default") permit (principal, action, resource);
`;

describe('finding what a policy denied in Jaeger', () => {
  it('the documented tags query returns the calls no-rm denied, and only those', async (ctx) => {
    const jaeger = await startJaeger({ binary: requireJaeger(ctx) });
    try {
      const provider = newTracerProvider({
        spanProcessors: [simpleSpanProcessor(new OTLPTraceExporter({ url: `${jaeger.otlpHttpUrl}/v1/traces` }))],
        resource: resourceFromAttributes({ 'service.name': 'policy-app' }),
      } as Parameters<typeof newTracerProvider>[0]);
      const engine = await cedarPolicy({ policies: POLICIES, principal: () => 'Agent::"ops-bot"' });
      const runner = new HookRunner({ hooks: [policyHook(engine)], tracer: provider.getTracer('toolhooks') });
      for (const cmd of ['rm -rf /tmp/a', 'ls', 'sudo reboot', 'rm -rf /var']) {
        await executeTool({ hooks: runner, toolName: 'shell', args: { cmd }, execute: () => 'ran' }).catch(() => undefined);
      }
      await provider.forceFlush();
      const traces = await jaeger.waitFor('the two calls no-rm denied', async () => {
        const found = await jaeger.findTraces({ service: 'policy-app', tags: { 'toolhooks.policy.ids': '["no-rm"]', 'toolhooks.decision': 'abort' } });
        return found.length === 2 && found;
      });
      for (const found of traces) {
        const events = found.spans.flatMap((span) => span.logs.map((log) => tagsOf(log.fields)));
        expect(events).toContainEqual(expect.objectContaining({ 'toolhooks.policy.ids': '["no-rm"]', 'toolhooks.policy.engine': 'cedar', 'toolhooks.decision': 'abort' }));
      }
      const sudo = await jaeger.findTraces({ service: 'policy-app', tags: { 'toolhooks.policy.ids': '["no-sudo"]' } });
      expect(sudo).toHaveLength(1);
      await provider.shutdown();
    } finally {
      await jaeger.stop();
    }
  }, 120_000);
});
