/**
 * The adapter examples, run the way their header says (`npx tsx examples/<name>.ts`), offline.
 */
import { describe, expect, it } from 'vitest';
import { runExample } from '../../support/run-example.js';

describe('examples/ai-agent.ts', () => {
  it('shows each decision in what the model received and nests execute_tool under ai.toolCall', () => {
    const output = runExample('ai-agent');
    expect(output).toContain('call_1 get_weather: {"type":"json","value":{"city":"Paris","forecast":"cloudy","celsius":17,"cached":true}}');
    expect(output).toContain('call_2 get_weather: {"type":"json","value":{"city":"Lisbon","forecast":"sunny","celsius":24}}');
    expect(output).toContain('call_3 run_shell: {"type":"text","value":"sandbox: ran \\"curl https://example.com\\""}');
    expect(output).toContain('call_4 run_shell: {"type":"error-text","value":"destructive command refused"}');
    expect(output).toMatch(/call_5 get_weather: \{"type":"error-text","value":"Invalid input for tool get_weather/);
    // The trace tree (startTelemetry's console: 'tree'): each execute_tool span nests under the AI SDK's ai.toolCall span.
    for (const [id, tool, outcome] of [['call_1', 'get_weather', 'skipped'], ['call_2', 'get_weather', 'completed'], ['call_3', 'run_shell', 'completed'], ['call_4', 'run_shell', 'aborted']]) {
      expect(output).toMatch(new RegExp(`├─ ai\\.toolCall .*\\n(│  │.*\\n)*│  └─ execute_tool ${tool} .*id=${id} .*outcome=${outcome}`));
    }
    // The malformed call never reached execute; recordInvalidToolCalls records it as failed.
    expect(output).toMatch(/execute_tool get_weather .*id=call_5 .*outcome=failed .*error\.type=InvalidToolInputError/);
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
    expect(output).toMatch(/execute_tool mcp__files__read_file .*outcome=recovered\n├─ toolhooks\.execute .*error\.type=McpToolError.*\n└─ toolhooks\.on_error .*decision=skip by missing-file-help/);
  }, 60_000);
});
