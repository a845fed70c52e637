import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTR_APPROVAL_OUTCOME,
  ATTR_GATED,
  ATTR_DECISION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  ATTR_PHASE,
  METRIC_APPROVAL_REQUESTS,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_ERRORS,
  METRIC_LIMIT_EXCEEDED,
  METRIC_TOOL_CALLS,
} from '../../../src/telemetry/semconv.js';
import { requirePrograms, runProgram } from '../../support/programs.js';
import { prometheusCounter, prometheusLabel } from '../../support/prometheus.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const prometheusDir = join(root, 'deploy/prometheus');

describe('Prometheus configuration, checked by the real promtool', () => {
  it('promtool check config accepts prometheus.yml (and the rules it loads)', async (ctx) => {
    const { promtool } = requirePrograms(ctx, ['promtool']);
    const result = await runProgram(promtool, ['check', 'config', join(prometheusDir, 'prometheus.yml')]);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toContain('SUCCESS: 1 rule files found');
  });

  it('promtool check rules accepts alerts.yml', async (ctx) => {
    const { promtool } = requirePrograms(ctx, ['promtool']);
    const result = await runProgram(promtool, ['check', 'rules', join(prometheusDir, 'alerts.yml')]);
    expect(result.code, result.output).toBe(0);
  });

  it('promtool test rules passes the unit tests in alerts.test.yml', async (ctx) => {
    const { promtool } = requirePrograms(ctx, ['promtool']);
    const result = await runProgram(promtool, ['test', 'rules', join(prometheusDir, 'alerts.test.yml')]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('SUCCESS');
  });

  describe('a file promtool rejects', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'toolhooks-promtool-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('fails check rules with promtool’s message', async (ctx) => {
      const { promtool } = requirePrograms(ctx, ['promtool']);
      const rules = (await readFile(join(prometheusDir, 'alerts.yml'), 'utf8')).replace(
        'sum by (gen_ai_tool_name) (rate(toolhooks_tool_calls_total[5m]))',
        'sum by (gen_ai_tool_name) (rate(toolhooks_tool_calls_total[5m])',
      );
      const broken = join(dir, 'alerts.yml');
      await writeFile(broken, rules);
      const result = await runProgram(promtool, ['check', 'rules', broken]);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toMatch(/parse error/);
    });

    it('fails test rules when an expectation does not hold', async (ctx) => {
      const { promtool } = requirePrograms(ctx, ['promtool']);
      // The real rules with a threshold of 50%: the 30% cases in the unit tests must now fail.
      const rules = (await readFile(join(prometheusDir, 'alerts.yml'), 'utf8')).replaceAll('> 0.2\n', '> 0.5\n');
      await writeFile(join(dir, 'alerts.yml'), rules);
      await writeFile(join(dir, 'alerts.test.yml'), await readFile(join(prometheusDir, 'alerts.test.yml'), 'utf8'));
      const result = await runProgram(promtool, ['test', 'rules', join(dir, 'alerts.test.yml')]);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toContain('FAILED');
      expect(result.output).toContain('alertname: ToolhooksAbortRateHigh');
    });

    it('fails test rules when the ungated count misses a fresh series (plain increase())', async (ctx) => {
      const { promtool } = requirePrograms(ctx, ['promtool']);
      const fresh = '(toolhooks_tool_calls_total{toolhooks_gated="false"} unless toolhooks_tool_calls_total{toolhooks_gated="false"} offset 5m)';
      const original = await readFile(join(prometheusDir, 'alerts.yml'), 'utf8');
      expect(original).toContain(fresh);
      await writeFile(join(dir, 'alerts.yml'), original.replace(fresh, 'vector(0) * 0 unless vector(0)'));
      await writeFile(join(dir, 'alerts.test.yml'), await readFile(join(prometheusDir, 'alerts.test.yml'), 'utf8'));
      const result = await runProgram(promtool, ['test', 'rules', join(dir, 'alerts.test.yml')]);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toContain('alertname: ToolhooksUngatedCalls');
    });
  });
});

/** The YAML without its comment lines, which mention names only to explain them. */
function withoutComments(yaml: string): string {
  return yaml
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
}

describe('alert rules use the names toolhooks exports', () => {
  const exported = {
    metrics: new Set([METRIC_TOOL_CALLS, METRIC_HOOK_DECISIONS, METRIC_HOOK_ERRORS, METRIC_APPROVAL_REQUESTS, METRIC_LIMIT_EXCEEDED].map(prometheusCounter)),
    labels: new Set(
      [ATTR_GEN_AI_TOOL_NAME, ATTR_OUTCOME, ATTR_PHASE, ATTR_HOOK_NAME, ATTR_HOOK_ERROR_KIND, ATTR_DECISION, ATTR_HOOK_MODE, ATTR_GATED, ATTR_APPROVAL_OUTCOME].map(
        prometheusLabel,
      ),
    ),
  };

  it('every raw metric in alerts.yml is a translated toolhooks counter', async () => {
    const rules = withoutComments(await readFile(join(prometheusDir, 'alerts.yml'), 'utf8'));
    // Raw series are the names without a colon; recording-rule names (level:metric:ops) have colons.
    const used = new Set([...rules.matchAll(/(?<![:\w])(toolhooks_[a-z_]+_total)\b/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(
      [METRIC_APPROVAL_REQUESTS, METRIC_HOOK_DECISIONS, METRIC_HOOK_ERRORS, METRIC_LIMIT_EXCEEDED, METRIC_TOOL_CALLS].map(prometheusCounter).sort(),
    );
    for (const name of used) expect(exported.metrics).toContain(name);
  });

  it('every label the rules group by or match on is a translated toolhooks attribute', async () => {
    const rules = withoutComments(await readFile(join(prometheusDir, 'alerts.yml'), 'utf8'));
    const labels = new Set<string>();
    for (const match of rules.matchAll(/\b(?:by|on) \(([^)]*)\)/g)) {
      for (const label of (match[1] ?? '').split(',')) labels.add(label.trim());
    }
    for (const match of rules.matchAll(/\{(\w+)="/g)) labels.add(match[1] ?? '');
    expect(labels.size).toBeGreaterThan(0);
    for (const label of labels) expect(exported.labels, `label ${label}`).toContain(label);
    expect(labels).toContain(prometheusLabel(ATTR_GEN_AI_TOOL_NAME));
    expect(labels).toContain(prometheusLabel(ATTR_OUTCOME));
    expect(labels).toContain(prometheusLabel(ATTR_HOOK_ERROR_KIND));
    expect(labels).toContain(prometheusLabel(ATTR_HOOK_MODE));
    expect(labels).toContain(prometheusLabel(ATTR_GATED));
    expect(labels).toContain(prometheusLabel(ATTR_APPROVAL_OUTCOME));
  });
});
