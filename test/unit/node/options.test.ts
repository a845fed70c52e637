/** startTelemetry()'s options are checked as strictly for JavaScript callers as the types check them. */
import { describe, expect, it } from 'vitest';
import type { StartTelemetryOptions } from '../../../src/node/types.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, checkOptions } from '../../../src/node/options.js';

const check = (options: unknown) => checkOptions(options as StartTelemetryOptions);

describe('checkOptions', () => {
  it('defaults the console to off and the shutdown deadline to 2 s', () => {
    expect(check({})).toEqual({ console: false, shutdownTimeoutMillis: DEFAULT_SHUTDOWN_TIMEOUT_MS });
    expect(DEFAULT_SHUTDOWN_TIMEOUT_MS).toBe(2000);
  });

  it('keeps every valid option as given, and copies the headers', () => {
    const headers = { 'x-api-key': 'k' };
    const checked = check({
      serviceName: 'agent',
      endpoint: 'https://otel.example:4318',
      protocol: 'http/json',
      headers,
      console: 'tree',
      prometheus: { port: 9464, host: '0.0.0.0' },
      metricExportIntervalMillis: 1000,
      shutdownTimeoutMillis: 500,
    });
    expect(checked).toEqual({
      serviceName: 'agent',
      endpoint: 'https://otel.example:4318',
      protocol: 'http/json',
      headers: { 'x-api-key': 'k' },
      console: 'tree',
      prometheus: { port: 9464, host: '0.0.0.0' },
      metricExportIntervalMillis: 1000,
      shutdownTimeoutMillis: 500,
    });
    expect(checked.headers).not.toBe(headers);
  });

  it('names the one header that is not a string, never quoting the others (a token)', () => {
    const attempt = (): unknown => check({ headers: { authorization: 'Bearer s3cret-token', 'x-retries': 3 } });
    expect(attempt).toThrow('startTelemetry: options.headers["x-retries"] must be a string, got 3');
    expect(attempt).not.toThrow(/s3cret/);
  });

  it('names the option and quotes the value it rejects', () => {
    expect(() => check({ serviceName: ' ' })).toThrow('startTelemetry: options.serviceName must be a non-empty string, got the string " "');
    expect(() => check({ endpoint: 'localhost:4318' })).toThrow(/options\.endpoint must be an http\(s\) URL such as "http:\/\/localhost:4318", got the string "localhost:4318"/);
    expect(() => check({ headers: { a: 1 } })).toThrow('startTelemetry: options.headers["a"] must be a string, got 1');
    expect(() => check({ console: 'pretty' })).toThrow('startTelemetry: options.console must be true, false or "tree", got the string "pretty"');
    expect(() => check({ prometheus: { port: 70_000 } })).toThrow('startTelemetry: options.prometheus.port must be an integer from 1 to 65535, got 70000');
    expect(() => check({ prometheus: { port: 9464, host: '' } })).toThrow(/options\.prometheus\.host must be a host name or IP address/);
    expect(() => check({ metricExportIntervalMillis: '1000' })).toThrow('startTelemetry: options.metricExportIntervalMillis must be a positive number of milliseconds, got the string "1000"');
    expect(() => check({ shutdownTimeoutMillis: 0 })).toThrow(/options\.shutdownTimeoutMillis must be a positive number/);
    expect(() => check({ shutdownTimeoutMillis: 2 ** 40 })).toThrow(/shutdownTimeoutMillis/);
    expect(() => check(null)).toThrow('startTelemetry: options must be an object, got null');
    expect(() => check({ eventBridge: 'yes' })).toThrow('startTelemetry: options.eventBridge must be true or false, got the string "yes"');
    expect(check({ eventBridge: true }).eventBridge).toBe(true);
  });

  it('rejects an unknown option with the nearest known name, at the top level and in prometheus', () => {
    expect(() => check({ serviceNme: 'agent' })).toThrow(TypeError);
    expect(() => check({ serviceNme: 'agent' })).toThrow(/serviceName/);
    expect(() => check({ prometheus: { port: 9464, hots: 'x' } })).toThrow(/host/);
  });
});
