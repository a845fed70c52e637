/**
 * What toolhooks/node needs of the platform, checked before anything of the SDK runs, so that an app on
 * an older Node or on the SDK 2 line gets one error naming what is missing instead of a syntax or import
 * error from deep inside the SDK (docs/installation.md says how such an app uses toolhooks).
 * @internal
 */
import * as api from '@opentelemetry/api';

/** The oldest Node.js toolhooks/node (and the OpenTelemetry JS SDK 3) runs on. */
export const MINIMUM_NODE = '22.15.0';
/** The SDK line toolhooks/node builds on, as users name it. */
const SUPPORTED_SDK = 'the OpenTelemetry JS SDK 3 line (@opentelemetry/sdk-node 0.301.x, sdk-trace / sdk-metrics / sdk-logs 3.x, @opentelemetry/api 1.10)';
const SDK_2_HINT =
  'On the SDK 2 line, register your own providers and use toolhooks, toolhooks/hooks and the adapters without toolhooks/node: they attach to them (docs/installation.md).';

function olderThan(version: string, minimum: string): boolean {
  const [a = 0, b = 0, c = 0] = version.split('.').map(Number);
  const [x = 0, y = 0, z = 0] = minimum.split('.').map(Number);
  return a !== x ? a < x : b !== y ? b < y : c < z;
}

/**
 * What is missing for toolhooks/node here, as one sentence, or `undefined` when nothing is.
 *
 * @example
 * ```ts
 * platformProblem('20.20.2', false); // 'toolhooks/node needs Node.js 22.15.0 or newer; this is Node.js 20.20.2. ...'
 * ```
 */
export function platformProblem(nodeVersion: string, apiHasLogs: boolean): string | undefined {
  if (olderThan(nodeVersion, MINIMUM_NODE)) {
    return `toolhooks/node needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${nodeVersion}. ${SDK_2_HINT}`;
  }
  if (!apiHasLogs) {
    return (
      `toolhooks/node needs @opentelemetry/api 1.10 or newer (it runs on ${SUPPORTED_SDK}); ` +
      `the @opentelemetry/api installed here has no Logs API, so it is older. ${SDK_2_HINT}`
    );
  }
  return undefined;
}

/**
 * What is wrong with the SDK found (its `@opentelemetry/core` version), or `undefined` for the SDK 3 line.
 *
 * @example
 * ```ts
 * sdkProblem('2.12.0'); // 'toolhooks/node: startTelemetry() found OpenTelemetry JS SDK 2.12.0; it supports ...'
 * ```
 */
export function sdkProblem(sdkVersion: unknown): string | undefined {
  if (typeof sdkVersion === 'string' && sdkVersion.split('.')[0] === '3') return undefined;
  return `toolhooks/node: startTelemetry() found OpenTelemetry JS SDK ${String(sdkVersion)}; it supports ${SUPPORTED_SDK}. ${SDK_2_HINT}`;
}

const problem = platformProblem(process.versions.node, 'logs' in api);
if (problem !== undefined) throw new Error(problem);
