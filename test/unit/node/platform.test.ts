import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, platformProblem, sdkProblem } from '../../../src/node/platform.js';

describe('what toolhooks/node needs of the platform', () => {
  it('names the Node.js it needs and the one it found, for anything older than 22.15', () => {
    expect(platformProblem('20.20.2', true)).toMatch(/^toolhooks\/node needs Node\.js 22\.15\.0 or newer; this is Node\.js 20\.20\.2\./);
    expect(platformProblem('22.14.9', true)).toContain('this is Node.js 22.14.9');
    expect(platformProblem(MINIMUM_NODE, true)).toBeUndefined();
    expect(platformProblem('22.23.5', true)).toBeUndefined();
    expect(platformProblem('26.0.0', true)).toBeUndefined();
  });

  it('names @opentelemetry/api 1.10 when the installed API has no Logs API (1.9, the SDK 2 line), and says how SDK 2 apps use toolhooks', () => {
    const problem = platformProblem('22.23.5', false);
    expect(problem).toContain('toolhooks/node needs @opentelemetry/api 1.10 or newer');
    expect(problem).toContain('@opentelemetry/sdk-node 0.301.x');
    expect(problem).toContain('use toolhooks, toolhooks/hooks and the adapters without toolhooks/node');
  });

  it('startTelemetry() names the SDK version it found when it is not the SDK 3 line, and what it supports', () => {
    expect(sdkProblem('3.1.0')).toBeUndefined();
    expect(sdkProblem('2.12.0')).toMatch(/found OpenTelemetry JS SDK 2\.12\.0; it supports the OpenTelemetry JS SDK 3 line/);
    expect(sdkProblem('4.0.0')).toContain('found OpenTelemetry JS SDK 4.0.0');
    expect(sdkProblem(undefined)).toContain('found OpenTelemetry JS SDK undefined');
  });
});
