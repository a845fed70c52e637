/**
 * The adapter examples, run the way their header says (`npx tsx examples/<name>.ts`), offline.
 */
import { describe, expect, it } from 'vitest';
import { runExample } from '../../support/run-example.js';

describe('examples/ai-agent.ts', () => {
  it('shows each decision in what the model received and records on the execute_tool spans of @ai-sdk/otel', () => {
    const output = runExample('ai-agent');
    expect(output).toContain('call_1 get_weather: {"type":"json","value":{"city":"Paris","forecast":"cloudy","celsius":17,"cached":true}}');
    expect(output).toContain('call_2 get_weather: {"type":"json","value":{"city":"Lisbon","forecast":"sunny","celsius":24}}');
    expect(output).toContain('call_3 run_shell: {"type":"text","value":"sandbox: ran \\"curl https://example.com\\""}');
    expect(output).toContain('call_4 run_shell: {"type":"error-text","value":"HookAbortError: destructive command refused"}');
    expect(output).toMatch(/call_5 get_weather: \{"type":"error-text","value":"AI_InvalidToolInputError: Invalid input for tool get_weather/);
    // The trace tree (startTelemetry's console: 'tree'): one execute_tool span per call — the integration's —
    // under its step span, with toolhooks' outcome on it and the phase spans below it.
    for (const [id, tool, outcome] of [['call_1', 'get_weather', 'skipped'], ['call_2', 'get_weather', 'completed'], ['call_3', 'run_shell', 'completed'], ['call_4', 'run_shell', 'aborted']]) {
      expect(output).toMatch(new RegExp(`├─ step 1 .*\\n(│  .*\\n)*│  [├└]─ execute_tool ${tool} .*id=${id} .*outcome=${outcome}`));
      expect(output.match(new RegExp(`execute_tool ${tool} .*id=${id} `, 'g'))).toHaveLength(1);
    }
    expect(output).toMatch(/execute_tool run_shell .*id=call_3 .*\n.*toolhooks\.before_tool .*decision=redirect by sandbox-network/);
    // The malformed call never reached execute; recordInvalidToolCalls records it as failed, without its input.
    expect(output).toMatch(/execute_tool get_weather .*id=call_5 .*outcome=failed .*error\.type=InvalidToolInputError/);
    expect(output).not.toMatch(/execute_tool get_weather .*id=call_5 .*Oslo/);
  }, 60_000);
});

describe('examples/ai-approval.ts', () => {
  it('asks through the SDK, sends the approved mail once, and the denied one never', () => {
    const output = runExample('ai-approval');
    expect(output).toMatch(/approval request aitxt-\S+ for send_email \(call_ops\): mail to ops@example\.com needs a person/);
    expect(output).toContain('the model received for call_ops: {"type":"text","value":"sent \\"Status report\\" to ops@example.com"}');
    expect(output).toMatch(/the model received for call_ops: \{"type":"execution-denied","reason":"approval aitxt-\S+ was already resolved; the tool does not run again"\}/);
    expect(output).toContain('the model received for call_all: {"type":"execution-denied","reason":"not to the whole company"}');
    expect(output).toContain('Mails sent: ["ops@example.com"]');
    // Pass 1: the asking call ends as pending; pass 2: the integration's execute_tool span carries the approval.
    expect(output).toMatch(/chat turn: ask .*\n(.*\n)*?└─ execute_tool send_email .*id=call_ops .*outcome=pending/);
    expect(output).toMatch(/chat turn: approved .*\n└─ invoke_agent .*\n {3}├─ execute_tool send_email .*id=call_ops .*outcome=completed\n(.*\n)*? {3}│ {2}├─ \? approval: approved/);
    expect(output).toMatch(/chat turn: denied .*\n├─ execute_tool send_email .*id=call_all .*outcome=denied/);
    expect(output.match(/execute_tool send_email .*id=call_ops/g)).toHaveLength(2);
  }, 60_000);
});

describe('examples/mcp-agent.ts', () => {
  it('applies the hooks to MCP calls and records each outcome', () => {
    const output = runExample('mcp-agent');
    expect(output).toContain('Server tools: read_file, write_file, delete_file');
    expect(output).toContain('[mcp__files__read_file] completed\n  → buy milk');
    expect(output).toContain('[mcp__files__read_file] recovered\n  → /notes/missing.txt does not exist; try /notes/todo.txt');
    expect(output).toContain('[mcp__files__write_file] skipped\n  → dry run: would write /notes/todo.txt');
    expect(output).toContain('[mcp__files__delete_file] aborted\n  → rejected: HookAbortError from no-deletes: deleting files is not allowed in this session');
    expect(output).toContain('Files on the server: {"/notes/todo.txt":"buy milk","/tmp/scratch.txt":"draft"}');
    expect(output).toMatch(/execute_tool mcp__files__read_file .*outcome=recovered\n├─ toolhooks\.execute .*error\.type=tool_error.*\n└─ toolhooks\.on_error .*decision=skip by missing-file-help/);
  }, 60_000);
});

describe('examples/openai-agents-agent.ts', () => {
  it('runs the Agents SDK Runner offline: Skip and Redirect reach the model, Abort ends the run with ToolCallError', () => {
    const output = runExample('openai-agents-agent');
    expect(output).toContain('Agent stopped: HookAbortError: destructive command refused');
    expect(output).toContain('call_1 get_weather: {"city":"Paris","forecast":"cloudy","cached":true}');
    expect(output).toContain('call_2 get_weather: {"city":"Lisbon","forecast":"sunny","celsius":24}');
    expect(output).toContain('call_3 run_shell: sandbox: ran "curl https://example.com"');
    expect(output).toMatch(/execute_tool get_weather .*id=call_1 .*outcome=skipped/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_3 .*outcome=completed .*→ run_shell_sandboxed/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_4 .*outcome=aborted .*error\.type=HookAbortError/);
  }, 60_000);
});

describe('examples/openai-agents-approval.ts', () => {
  it('interrupts at the Ask, resumes a saved state with fresh tools: the approved email is sent once, the rejected one reads as not run', () => {
    const output = runExample('openai-agents-approval');
    expect(output).toContain('Waiting for approval: send_email {"to":"team@example.com","subject":"Release notes"}, send_email {"to":"all@example.com","subject":"Party!"}');
    expect(output).toContain('Emails sent: team@example.com\n');
    expect(output).toContain('call_1 send_email (completed): sent "Release notes" to team@example.com');
    expect(output).toContain('call_2 send_email (completed): Tool execution was not approved. The tool "send_email" was not run.');
    expect(output).toMatch(/execute_tool send_email .*id=call_1 .*outcome=pending/);
    expect(output).toMatch(/execute_tool send_email .*id=call_2 .*outcome=denied/);
    expect(output).toMatch(/execute_tool send_email .*id=call_1 .*outcome=completed\n(.*\n)*.*approval: approved/);
  }, 60_000);
});

describe('examples/mastra-agent.ts', () => {
  it('runs a Mastra Agent offline: Abort reaches the model as the tool error and the run goes on; refused input is a failed call', () => {
    const output = runExample('mastra-agent');
    expect(output).toContain('call_1 get_weather: {"type":"json","value":{"city":"Paris","forecast":"cloudy","cached":true}}');
    expect(output).toContain('call_3 run_shell: {"type":"text","value":"sandbox: ran \\"curl https://example.com\\""}');
    expect(output).toContain('call_4 run_shell: {"type":"error-text","value":"destructive command refused"}');
    expect(output).toContain('Final answer: Paris is cloudy');
    expect(output).toMatch(/execute_tool run_shell .*id=call_4 .*outcome=aborted .*error\.type=HookAbortError/);
    expect(output).toMatch(/execute_tool get_weather .*id=call_5 .*outcome=failed .*error\.type=ValidationError/);
  }, 60_000);
});

describe('examples/mastra-approval.ts', () => {
  it("asks through Mastra's tool-call approval: the approved call runs in the continuation, the declined one never runs and is recorded as denied", () => {
    const output = runExample('mastra-approval');
    expect(output).toContain('Approval requested: run_shell {"cmd":"rm -rf build"} (tool call call_1)');
    expect(output).toContain('call_1 run_shell: {"type":"text","value":"host: ran \\"rm -rf build\\""}');
    expect(output).toContain('call_2 run_shell: {"type":"text","value":"never on the root filesystem"}');
    expect(output).toContain('declined → final answer: I did not delete anything.');
    expect(output).toMatch(/execute_tool run_shell .*id=call_1 .*outcome=pending\n(.*\n)*└─ \? approval: pending/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_1 .*outcome=completed\n(.*\n)*├─ \? approval: approved/);
    expect(output).toMatch(/execute_tool run_shell .*id=call_2 .*outcome=denied\n(.*\n)*└─ \? approval: denied "never on the root filesystem"/);
    expect(output.match(/execute_tool run_shell /g)).toHaveLength(4);
  }, 60_000);
});

describe('examples/adk.ts', () => {
  it('runs a Google ADK agent offline through toolhooksPlugin: each decision reaches the model, one execute_tool span per call', () => {
    const output = runExample('adk');
    expect(output).toContain('call_1 get_weather: {"city":"Paris","forecast":"cloudy","cached":true}');
    expect(output).toContain('call_3 run_shell: {"result":"sandbox: ran \\"curl https://example.com\\""}');
    expect(output).toContain('call_4 run_shell: {"error":"This tool call was aborted by no-destruction. Reason: destructive command refused"}');
    expect(output).toContain('Final answer: Paris is cloudy');
    for (const [id, tool, outcome] of [['call_1', 'get_weather', 'skipped'], ['call_2', 'get_weather', 'completed'], ['call_3', 'run_shell', 'completed'], ['call_4', 'run_shell', 'aborted']]) {
      expect(output.match(new RegExp(`execute_tool ${tool} .*id=${id} .*outcome=${outcome}`, 'g'))).toHaveLength(1);
    }
    expect(output).toMatch(/execute_tool run_shell .*id=call_3 .*\n.*toolhooks\.before_tool .*decision=redirect by sandbox-network/);
  }, 60_000);
});
