/**
 * Validation shared by the flows: bad input is a TypeError/RangeError naming the parameter, raised
 * before any hook runs.
 * @internal
 */
import { typeName } from '../describe.js';
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';

export function requireObject(value: unknown, what: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') throw new TypeError(`${what} must be an object, got ${typeName(value)}`);
}

export function requireToolName(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${what} must be a non-empty string, got ${typeof value === 'string' ? 'an empty string' : typeName(value)}`);
  }
}

export function requireArgs(value: unknown, what: string): asserts value is ToolArgs {
  if (!isPlainObject(value)) throw new TypeError(`${what} must be a plain object of tool arguments, got ${typeName(value)}`);
}

export function requireFunction(value: unknown, what: string): void {
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function, got ${typeName(value)}`);
}

export function optionalCount(value: unknown, fallback: number, what: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeName(value)}`);
  return value;
}
