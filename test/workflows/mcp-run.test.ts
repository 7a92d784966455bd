import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentDescriptor } from '../../src/common/agent';
import type { ToolMessage } from '../../src/common/messages';
import type { McpServersInput } from '../../src/mcp';
import type { ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { activityResults } from '../helpers/activity-history';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitForPending } from '../helpers/wait-for';
import { freePort, startEverythingHttp, type HttpServerProcess } from '../mcp/helpers/everything-http';
import { mcpChildProcesses } from '../mcp/helpers/processes';
import { EVERYTHING_BIN, FAULT_SERVER, FILESYSTEM_BIN } from '../mcp/helpers/servers';

const agents = [
  defineAgent({ name: 'everything-stdio', instructions: 'Use the tools.', mcpServers: ['everything'] }),
  defineAgent({ name: 'everything-http', instructions: 'Use the tools.', mcpServers: ['remote'] }),
  defineAgent({ name: 'files', instructions: 'Work with files.', mcpServers: ['fs'] }),
  defineAgent({ name: 'clash-code', instructions: 'Echo.', tools: [echoTool], mcpServers: ['everything'] }),
  defineAgent({ name: 'clash-servers', instructions: 'Echo.', mcpServers: ['everything', 'fault'] }),
  defineAgent({ name: 'meta', instructions: 'Show the meta.', mcpServers: ['fault'] }),
];

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

const summarize = (_req: unknown, info: ScriptedTurnInfo) => `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;

describe('MCP tools in agent runs on a real Temporal server', () => {
  let env: AgentTestEnv;
  let http: HttpServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-run-')));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    http = await startEverythingHttp(await freePort());
    // The HTTP server comes from tools.json, its address through ${VAR}; the others from code.
    const toolsConfigPath = join(dir, 'tools.json');
    writeFileSync(
      toolsConfigPath,
      JSON.stringify({ mcpServers: { remote: { url: '${EVERYTHING_HTTP_URL}', enableTools: ['echo', 'get-sum'] } } }),
    );
    process.env.EVERYTHING_HTTP_URL = http.url;
    const mcpServers: McpServersInput = {
      everything: { command: EVERYTHING_BIN, args: ['stdio'] },
      fs: { command: FILESYSTEM_BIN, args: [dir] },
      fault: {
        command: process.execPath,
        args: [FAULT_SERVER],
        env: { FAULT_SERVER_LABEL: 'fault' },
        permission: 'allow',
        enableTools: ['echo', 'show_meta'],
      },
    };
    env = await startAgentTestEnv({ agents, mcpServers, toolsConfigPath });
  });

  afterAll(async () => {
    await env?.stop();
    await http?.stop();
    delete process.env.EVERYTHING_HTTP_URL;
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(mcpChildProcesses()).toEqual([]);
  });

  function script(calls: { name: string; arguments: Record<string, unknown> }[]) {
    env.model.setScript((req, info) => (info.turnIndex === 0 ? { toolCalls: calls } : summarize(req, info)));
  }

  /** The tool names of the last run's first model request. */
  function offeredTools(): string[] {
    return (env.model.requests.filter((r) => r.turnIndex === 0).at(-1)!.body.tools ?? []).map((t) => t.function.name);
  }

  test('server-everything over stdio: echo and get-sum give their real answers, recorded with the run', async () => {
    script([
      { name: 'echo', arguments: { message: 'hello durable' } },
      { name: 'get-sum', arguments: { a: 19, b: 23 } },
    ]);
    const run = await env.client.start('everything-stdio', { prompt: 'echo and add' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages).map((m) => [m.name, m.content, m.state])).toEqual([
      ['echo', 'Echo: hello durable', 'success'],
      ['get-sum', 'The sum of 19 and 23 is 42.', 'success'],
    ]);
    expect(result.output).toBe('Results: Echo: hello durable | The sum of 19 and 23 is 42.');
    // Read-only tools ran without asking.
    expect((await run.eventsAfter(0)).some((e) => e.type === 'permission_requested')).toBe(false);

    const [descriptor] = activityResults<AgentDescriptor>(await run.handle.fetchHistory(), 'describeAgent');
    expect(descriptor.tools.find((t) => t.name === 'get-sum')).toMatchObject({
      source: { kind: 'mcp', server: 'everything', toolName: 'get-sum' },
      readOnly: true,
      concurrencySafe: true,
      permission: 'allow',
    });
  });

  test('server-everything over streamable HTTP, configured in tools.json with ${VAR} and enableTools', async () => {
    script([
      { name: 'echo', arguments: { message: 'over http' } },
      { name: 'get-sum', arguments: { a: 2.5, b: 4 } },
    ]);
    const result = await (await env.client.start('everything-http', { prompt: 'echo and add over http' })).result();
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['Echo: over http', 'The sum of 2.5 and 4 is 6.5.']);
    expect(offeredTools().sort()).toEqual(['echo', 'get-sum']);
  });

  test('server-filesystem on a temp folder: reads without asking, writes after approval', async () => {
    const target = join(dir, 'out.txt');
    env.model.setScript((req, info) => {
      if (info.turnIndex === 0) return { toolCalls: [{ name: 'read_text_file', arguments: { path: join(dir, 'notes.txt') } }] };
      if (info.turnIndex === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'written in a run' } }] };
      return summarize(req, info);
    });
    const run = await env.client.start('files', { prompt: 'read, then write' });
    const { pending } = await waitForPending(run, 1);
    expect(pending[0]).toMatchObject({ tool: 'write_file', kind: 'approval' });
    expect(pending[0].decision?.reason).toMatch(/MCP tool 'write_file' requires explicit authorization/);
    await run.approve(pending[0].callId);
    const result = await run.result();
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      'first line\nsecond line\n',
      `Successfully wrote to ${target}`,
    ]);
    expect(readFileSync(target, 'utf8')).toBe('written in a run');
  });

  test('a code tool keeps its name; the MCP tool of the same name becomes <server>__<tool>', async () => {
    script([
      { name: 'echo', arguments: { text: 'from code' } },
      { name: 'everything__echo', arguments: { message: 'from MCP' } },
    ]);
    const result = await (await env.client.start('clash-code', { prompt: 'echo twice' })).result();
    expect(toolMessages(result.messages).map((m) => [m.name, m.content])).toEqual([
      ['echo', 'from code'],
      ['everything__echo', 'Echo: from MCP'],
    ]);
    expect(offeredTools()).toEqual(expect.arrayContaining(['echo', 'everything__echo', 'get-sum']));
  });

  test('two servers with a tool of the same name: both are <server>__<tool>, other tools keep their names', async () => {
    script([
      { name: 'everything__echo', arguments: { message: 'one' } },
      { name: 'fault__echo', arguments: { message: 'two' } },
      { name: 'get-sum', arguments: { a: 1, b: 2 } },
    ]);
    const result = await (await env.client.start('clash-servers', { prompt: 'echo on both' })).result();
    expect(toolMessages(result.messages).map((m) => [m.name, m.content, m.state])).toEqual([
      ['everything__echo', 'Echo: one', 'success'],
      ['fault__echo', '[fault] two', 'success'],
      ['get-sum', 'The sum of 1 and 2 is 3.', 'success'],
    ]);
    const offered = offeredTools();
    expect(offered).not.toContain('echo');
    expect(offered).toEqual(expect.arrayContaining(['everything__echo', 'fault__echo', 'show_meta']));
  });

  test("the run's runtime context and call ids reach the server as the request's _meta", async () => {
    script([{ name: 'show_meta', arguments: {} }]);
    const run = await env.client.start('meta', {
      prompt: 'show the meta',
      userId: 'u-42',
      sessionId: 's-9',
      runtime: { tenant: 'acme' },
    });
    const result = await run.result();
    const [message] = toolMessages(result.messages);
    expect(JSON.parse(message.content)).toMatchObject({
      userId: 'u-42',
      sessionId: 's-9',
      tenant: 'acme',
      agent: 'meta',
      workflowId: run.workflowId,
      callId: message.toolCallId,
      idempotencyKey: `${run.workflowId}:${message.toolCallId}`,
    });
  });
});
