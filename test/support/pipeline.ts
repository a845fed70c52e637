/**
 * The two-tier pipeline of deploy/pipeline/ with real programs on 127.0.0.1: Jaeger, N samplers
 * (deploy/tail-sampling.yaml + deploy/pipeline/sampler.yaml) exporting to it, and a gateway
 * (deploy/pipeline/gateway.yaml) routing to them by trace ID. Started in that order, each healthy before
 * the next; {@link RunningPipeline.stop} stops every process, in reverse order.
 *
 * @example
 * ```ts
 * const pipeline = await startPipeline({ otelcol: requireOtelcol(ctx), jaeger: requireJaeger(ctx), samplePercent: 20 });
 * try {
 *   // apps send to pipeline.gateway.otlpHttpUrl; traces are read from pipeline.jaeger
 * } finally {
 *   await pipeline.stop();
 * }
 * ```
 */
import { JAEGER_CONFIG, TAIL_SAMPLING_CONFIG, startJaeger, type RunningJaeger } from './jaeger.js';
import { isCi, type SkippableContext } from './programs.js';
import { GATEWAY_CONFIG, SAMPLER_CONFIG, startCollector, type CollectorPorts, type RunningCollector } from './otelcol.js';

/** Options of {@link startPipeline}. */
export interface PipelineOptions {
  /** The collector binary (requireOtelcol). */
  readonly otelcol: string;
  /** The Jaeger binary (requireJaeger). */
  readonly jaeger: string;
  /** Samplers behind the gateway; default 2. */
  readonly samplers?: number;
  /** TOOLHOOKS_TRACE_SAMPLE_PERCENT of the samplers; default: the file's own (10). */
  readonly samplePercent?: number;
  /** Jaeger config files; default deploy/jaeger/jaeger.yaml (memory storage). */
  readonly jaegerConfigs?: readonly string[];
  readonly jaegerEnv?: Readonly<Record<string, string>>;
  /** Extra environment for the samplers and the gateway. */
  readonly samplerEnv?: Readonly<Record<string, string>>;
  readonly gatewayEnv?: Readonly<Record<string, string>>;
  /** Run the samplers with the decision waits deploy/ ships instead of {@link TEST_SAMPLER_ENV}'s short ones. */
  readonly shippedWaits?: boolean;
}

/** A started pipeline. Always call {@link RunningPipeline.stop}. */
export interface RunningPipeline {
  readonly jaeger: RunningJaeger;
  readonly samplers: RunningCollector[];
  readonly gateway: RunningCollector;
  /** Starts sampler `index` again on its old ports (after a kill), replacing it in `samplers`. */
  restartSampler(index: number): Promise<RunningCollector>;
  /** Every collector's log, for failure messages. */
  logs(): string;
  /** Stops the gateway, the samplers and Jaeger. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The sampler settings the tests use: decisions 1 s after a trace's root span arrives (30 s at most), so
 * a test waits seconds, not the production 30 s.
 */
export const TEST_SAMPLER_ENV: Readonly<Record<string, string>> = {
  TOOLHOOKS_TRACE_DECISION_WAIT: '10s',
  TOOLHOOKS_TRACE_DECISION_WAIT_AFTER_ROOT: '1s',
};

/**
 * Starts Jaeger, the samplers and the gateway; on a failure, stops what was started and rethrows.
 *
 * @example
 * ```ts
 * const pipeline = await startPipeline({ otelcol, jaeger, samplers: 2 });
 * ```
 */
export async function startPipeline(options: PipelineOptions): Promise<RunningPipeline> {
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async (): Promise<void> => {
    for (const process of started.reverse()) await process.stop().catch(() => undefined);
    started.length = 0;
  };
  try {
    const jaeger = await startJaeger({
      binary: options.jaeger,
      configs: options.jaegerConfigs ?? [JAEGER_CONFIG],
      ...(options.jaegerEnv === undefined ? {} : { env: options.jaegerEnv }),
    });
    started.push(jaeger);
    const samplerEnv: Record<string, string> = {
      ...(options.shippedWaits === true ? {} : TEST_SAMPLER_ENV),
      TOOLHOOKS_JAEGER_ENDPOINT: `127.0.0.1:${jaeger.ports.otlpGrpc}`,
      ...(options.samplePercent === undefined ? {} : { TOOLHOOKS_TRACE_SAMPLE_PERCENT: String(options.samplePercent) }),
      ...options.samplerEnv,
    };
    const startSampler = (index: number, ports?: CollectorPorts): Promise<RunningCollector> =>
      startCollector({
        binary: options.otelcol,
        name: `sampler-${index + 1}`,
        configs: [TAIL_SAMPLING_CONFIG, SAMPLER_CONFIG],
        env: samplerEnv,
        ...(ports === undefined ? {} : { ports }),
      });
    const samplers: RunningCollector[] = [];
    for (let index = 0; index < (options.samplers ?? 2); index += 1) {
      const sampler = await startSampler(index);
      samplers.push(sampler);
      started.push({ stop: () => (samplers[index] ?? sampler).stop() });
    }
    const gateway = await startCollector({
      binary: options.otelcol,
      name: 'gateway',
      configs: [GATEWAY_CONFIG],
      env: { TOOLHOOKS_SAMPLERS: `[${samplers.map((s) => s.otlpGrpcEndpoint).join(', ')}]`, ...options.gatewayEnv },
    });
    started.push(gateway);
    return {
      jaeger,
      samplers,
      gateway,
      async restartSampler(index) {
        const old = samplers[index];
        if (old === undefined) throw new RangeError(`no sampler ${index}`);
        await old.stop();
        const sampler = await startSampler(index, old.ports);
        samplers[index] = sampler;
        return sampler;
      },
      logs: () => [gateway, ...samplers].map((c) => `--- ${c.name} ---\n${c.logs().slice(-6000)}`).join('\n'),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Why the pipeline tests do not run here, or undefined in CI. They start seven real processes and take a
 * minute or more each, so they run where CI runs them (and where asked to):
 * `CI=true npx vitest run test/system/pipeline`. The note is also printed, so a skip is never silent.
 *
 * @example
 * ```ts
 * describe.skipIf(pipelineSkipNote() !== undefined)('the pipeline', () => { … });
 * ```
 */
export function pipelineSkipNote(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isCi(env)) return undefined;
  const note =
    'the pipeline system tests run in CI only (real collectors and Jaeger); run them with' +
    ' `CI=true npx vitest run test/system/pipeline` after `bash scripts/ci-install-tools.sh`.';
  console.warn(`[skipped] ${note}`);
  return note;
}

/**
 * A stand-in test context for a `beforeAll`, where a missing program must fail (these suites only run in
 * CI, where a missing program is a broken install, never a skip).
 */
export const SUITE_CONTEXT: SkippableContext = {
  skip(note?: string): never {
    throw new Error(note ?? 'a program the pipeline needs is missing');
  },
};
