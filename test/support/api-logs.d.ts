/**
 * What the SDK 2 lane uses of `@opentelemetry/api-logs` (installed in test/sdk2/, not in the main tree, which
 * runs on SDK 3 and its Logs API in `@opentelemetry/api`). Only test/support/sdk.ts imports it, and only
 * when the SDK is the 2 line.
 */
declare module '@opentelemetry/api-logs' {
  export const logs: {
    setGlobalLoggerProvider(provider: unknown): unknown;
    disable(): void;
  };
}
