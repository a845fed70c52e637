/**
 * A policy engine for tests of `policyHook`: it answers `answer` (or what `answer(input)` returns) and
 * remembers every input it was given, so a test can check both what the hook did and what it sent.
 */
import type { PolicyEngine, PolicyInput } from '../../src/policy/index.js';

/**
 * An engine named `test-engine` with a fixed digest; `extra` overrides any of its members.
 *
 * @example
 * ```ts
 * const policy = recordingEngine({ decision: 'deny', reason: 'no' });
 * // … run a call through policyHook(policy) …
 * expect(policy.inputs[0]?.tool.name).toBe('shell');
 * ```
 */
export function recordingEngine(answer: unknown, extra: Partial<PolicyEngine> = {}): PolicyEngine & { inputs: PolicyInput[] } {
  const inputs: PolicyInput[] = [];
  return {
    name: 'test-engine',
    digest: 'ab'.repeat(32),
    inputs,
    evaluate(input) {
      inputs.push(input);
      return (typeof answer === 'function' ? (answer as (input: PolicyInput) => unknown)(input) : answer) as never;
    },
    ...extra,
  };
}
