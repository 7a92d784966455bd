import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import type { AgentDescriptor } from '../../src/common/agent';
import type { ToolMessage } from '../../src/common/messages';
import type { McpServersInput } from '../../src/mcp';
import type { ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { activityEvents, activityResults } from '../helpers/activity-history';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait-for';
import { mcpChildProcesses } from '../mcp/helpers/processes';
import { FAULT_SERVER } from '../mcp/helpers/servers';

const agent = defineAgent({ name: 'faulty', instructions: 'Use the tools.' });

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

const summarize = (_req: unknown, info: ScriptedTurnInfo) => `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;

describe('MCP servers that misbehave, in agent runs', () => {
  let env: AgentTestEnv;
  let dir: string;
  let crashMarker: string;
  let lateGate: string;
  const logs: LogEntry[] = [];

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-faults-')));
    crashMarker = join(dir, 'crashed');
    lateGate = join(dir, 'late-may-start');
    const fault = (env: Record<string, string>, extra: Record<string, unknown> = {}) => ({
      command: process.execPath,
      args: [FAULT_SERVER],
      env,
      permission: 'allow' as const,
      ...extra,
    });
    const mcpServers: McpServersInput = {
      flaky: fault(
        { FAULT_SERVER_LABEL: 'flaky', FAULT_SERVER_CRASH_MARKER: crashMarker },
        { timeout: '1s', enableTools: ['echo', 'crash_once', 'hang'] },
      ),
      broken: fault({ FAULT_SERVER_MODE: 'fail-to-start' }),
      late: fault({ FAULT_SERVER_START_GATE: lateGate }, { enableTools: ['cwd'], cwd: dir }),
    };
    env = await startAgentTestEnv({
      agents: [agent],
      mcpServers,
      logger: new DefaultLogger('WARN', (entry) => logs.push(entry)),
    });
  });

  afterAll(async () => {
    await env?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(mcpChildProcesses()).toEqual([]);
  });

  function script(calls: { name: string; arguments: Record<string, unknown> }[]) {
    env.model.setScript((req, info) => (info.turnIndex === 0 ? { toolCalls: calls } : summarize(req, info)));
  }

  test('a server that fails to start: the worker starts anyway, says why, and the other tools work', async () => {
    const warning = logs.find((entry) => entry.message.startsWith("MCP server 'broken' failed to start"));
    expect(warning).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(/the server process exited during initialization; retrying in \d+ ms/),
      meta: expect.objectContaining({ stderr: expect.stringContaining('cannot open database /nonexistent/db.sqlite') }),
    });
    expect(env.worker.mcpServers().find((s) => s.server === 'broken')).toMatchObject({
      // It keeps trying in the background, so it may be between two attempts.
      state: expect.stringMatching(/^(failed|connecting)$/),
      toolCount: 0,
      error: 'failed to start: the server process exited during initialization',
      stderr: expect.stringContaining('permission denied'),
    });

    script([{ name: 'echo', arguments: { message: 'still here' } }]);
    const result = await (await env.client.start('faulty', { prompt: 'echo' })).result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages)[0]).toMatchObject({ name: 'echo', content: '[flaky] still here', state: 'success' });
  });

  test('a server that connects later brings its tools to the runs started after it', async () => {
    script([{ name: 'cwd', arguments: {} }]);
    const before = await env.client.start('faulty', { prompt: 'where are you?' });
    const early = await before.result();
    expect(toolMessages(early.messages)[0]).toMatchObject({ content: 'Error: Tool not found: cwd', state: 'error' });

    writeFileSync(lateGate, 'go');
    await waitFor(
      async () => (env.worker.mcpServers().find((s) => s.server === 'late')?.state === 'connected' ? true : undefined),
      "the 'late' server to connect",
      40_000,
    );
    const after = await (await env.client.start('faulty', { prompt: 'where are you now?' })).result();
    expect(toolMessages(after.messages)[0]).toMatchObject({ name: 'cwd', content: dir, state: 'success' });
  });

  test('a server that crashes mid-call: the activity is retried after the reconnect and the run completes', async () => {
    script([{ name: 'crash_once', arguments: {} }]);
    const run = await env.client.start('faulty', { prompt: 'crash' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    const crashedPid = readFileSync(crashMarker, 'utf8');
    const [message] = toolMessages(result.messages);
    expect(message).toMatchObject({ name: 'crash_once', state: 'success', content: expect.stringMatching(/^survived \(pid \d+\)$/) });
    expect(message.content).not.toContain(`pid ${crashedPid})`);

    const started = activityEvents(await run.handle.fetchHistory(), 'executeTool').filter((e) => e.kind === 'started');
    expect(started).toHaveLength(1);
    expect(started[0].attempt).toBe(2);
    expect(started[0].lastFailure).toEqual({
      type: 'Tool.Retryable',
      message: expect.stringContaining("MCP server 'flaky' lost its connection during a call to 'crash_once'"),
    });
  });

  test('a server that hangs: the timeout fires and the model gets an error result', async () => {
    script([{ name: 'hang', arguments: {} }]);
    const run = await env.client.start('faulty', { prompt: 'hang' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages)[0]).toMatchObject({
      name: 'hang',
      state: 'error',
      content: "Error: the MCP call to 'hang' timed out after 1000 ms.",
    });
    expect(result.output).toBe("Results: Error: the MCP call to 'hang' timed out after 1000 ms.");
    const [descriptor] = activityResults<AgentDescriptor>(await run.handle.fetchHistory(), 'describeAgent');
    // The activity's own timeout leaves room for the MCP timeout to be reported as a result.
    expect(descriptor.tools.find((t) => t.name === 'hang')?.timeout).toBe('31s');
  });
});
