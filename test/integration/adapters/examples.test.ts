/**
 * The LangChain and Claude Agent SDK examples, run the way their header says
 * (`npx tsx examples/<name>.ts`), offline.
 */
import { describe, expect, it } from 'vitest';
import { runExample } from '../../support/run-example.js';

describe('examples/langchain-agent.ts', () => {
  it('shows each decision in what the model read, stops on Abort, and prints each call\'s span tree', () => {
    const output = runExample('langchain-agent');
    expect(output).toContain('call_1 get_weather: {"city":"Paris","forecast":"cloudy","cached":true}');
    expect(output).toContain('call_2 get_weather: {"city":"Lisbon","forecast":"sunny","celsius":24}');
    expect(output).toContain('call_3 run_shell_sandboxed: sandbox: ran "curl https://example.com"');
    expect(output).toContain('call_4 read_stock: stock unknown: the inventory service is down');
    expect(output).toContain('Agent stopped: HookAbortError from no-destruction: destructive command refused (model calls: 1)');
    expect(output).toMatch(/execute_tool run_shell .*id=call_3 .*outcome=completed .*→ run_shell_sandboxed/);
    expect(output).toMatch(/execute_tool read_stock .*id=call_4 .*outcome=recovered\n├─ toolhooks\.execute .*\n└─ toolhooks\.on_error .*decision=skip by stock-fallback/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_5 .*outcome=aborted .*error\.type=HookAbortError/);
  }, 60_000);
});

describe('examples/langchain-approval.ts', () => {
  it('stops with the interrupts, resumes with HITL decisions (one approved, one rejected), refuses the replayed answer', () => {
    const output = runExample('langchain-approval');
    expect(output).toContain('Waiting for approval: 2 call(s)');
    expect(output).toContain('call_1 transfer {"to":"landlord","amount":900}: transfers over 100 EUR need a second person');
    expect(output).toContain('call_1 (success): sent 900 EUR to landlord');
    expect(output).toContain('call_2 (error): Tool call denied: payee not on the list');
    expect(output).toContain('Replayed call_1: approval call_1 was already resolved; the tool does not run again');
    expect(output.match(/Warning: .*approval "call_1" was already resolved/g)).toHaveLength(1);
    expect(output).toMatch(/execute_tool transfer .*id=call_1 .*outcome=pending/);
    expect(output).toMatch(/execute_tool transfer .*id=call_1 .*outcome=completed\n(.*\n)*?├─ \S+ approval: approved/);
    expect(output).toMatch(/execute_tool transfer .*id=call_2 .*outcome=denied/);
    expect(output.match(/sent 900 EUR/g)).toHaveLength(1);
  }, 60_000);
});

describe('examples/claude-approval.ts', () => {
  it('defers the asked call, resumes it approved by alice, and the model reads the replaced key', () => {
    const output = runExample('claude-approval');
    expect(output).toContain('Deferred: Read (toolu_read) — reading a file needs a person to say yes');
    expect(output).toMatch(/execute_tool Read .*id=toolu_read .*outcome=pending/);
    expect(output).toMatch(/execute_tool Read .*id=toolu_read .*outcome=completed/);
    expect(output).toContain('approval: approved by alice');
    expect(output).toContain('toolu_read: 1\tcall the plumber on Monday');
    expect(output).toContain('toolu_key: [the key is withheld]');
    expect(output).not.toContain('sk-live-123');
  }, 90_000);
});

describe('examples/claude-agent.ts', () => {
  it('runs the real query() offline: the model reads the stub and the rewritten call; Abort stops the agent', () => {
    const output = runExample('claude-agent');
    expect(output).toMatch(/toolu_1 \(error\): .*\{"city":"Paris","forecast":"cloudy"\}/);
    expect(output).toContain('toolu_2: contents of /notes/todo.txt (at most 1024 bytes)');
    expect(output).toContain('Model requests: 2');
    expect(output).toMatch(/execute_tool mcp__files__read .*id=toolu_1 .*outcome=skipped/);
    expect(output).toMatch(/execute_tool mcp__files__read .*id=toolu_2 .*outcome=completed .*redirected/);
    expect(output).toMatch(/execute_tool mcp__files__delete .*id=toolu_3 .*outcome=aborted .*error\.type=HookAbortError/);
  }, 90_000);
});
