import type { ToolMessage } from '../../src/common/messages';
import type { McpServersInput } from '../../src/mcp';
import type { ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import type { PreparedCall } from '../../src/common/contracts/tool-calls';
import { activityEvents, activityResults } from '../helpers/activity-history';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitForPending } from '../helpers/wait-for';
import { mcpChildProcesses } from '../mcp/helpers/processes';
import { FAULT_SERVER } from '../mcp/helpers/servers';

const agent = defineAgent({ name: 'guarded', instructions: 'Use the tools.' });

const mcpServers: McpServersInput = {
  // No `permission`: unannotated tools ask.
  careful: {
    command: process.execPath,
    args: [FAULT_SERVER],
    env: { FAULT_SERVER_LABEL: 'careful' },
    enableTools: ['echo', 'read_only_tool'],
  },
  trusted: {
    command: process.execPath,
    args: [FAULT_SERVER],
    env: { FAULT_SERVER_LABEL: 'trusted' },
    permission: 'allow',
    enableTools: ['cwd', 'additive_tool', 'destructive_tool'],
  },
};

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

const summarize = (_req: unknown, info: ScriptedTurnInfo) => `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;

describe('permissions of MCP tools in agent runs', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent], mcpServers });
  });

  afterAll(async () => {
    await env?.stop();
    expect(mcpChildProcesses()).toEqual([]);
  });

  function script(calls: { name: string; arguments: Record<string, unknown> }[]) {
    env.model.setScript((req, info) => (info.turnIndex === 0 ? { toolCalls: calls } : summarize(req, info)));
  }

  async function askedTools(run: { eventsAfter(seq: number): Promise<{ type: string; tool?: string }[]> }): Promise<string[]> {
    return (await run.eventsAfter(0)).filter((e) => e.type === 'permission_requested').map((e) => e.tool ?? '');
  }

  test('an MCP tool without annotations asks: the run waits for approval, then runs it', async () => {
    script([{ name: 'echo', arguments: { message: 'may I?' } }]);
    const run = await env.client.start('guarded', { prompt: 'echo' });
    const state = await waitForPending(run, 1);
    expect(state.status).toBe('awaiting_approval');
    expect(state.pending[0]).toMatchObject({
      tool: 'echo',
      kind: 'approval',
      input: { message: 'may I?' },
      decision: { behavior: 'ask', reason: "MCP tool 'echo' requires explicit authorization before each call" },
    });
    await run.approve(state.pending[0].callId);
    const result = await run.result();
    expect(toolMessages(result.messages)[0]).toMatchObject({ content: '[careful] may I?', state: 'success' });
  });

  test('readOnlyHint tools run without asking, side by side', async () => {
    script([
      { name: 'read_only_tool', arguments: {} },
      { name: 'read_only_tool', arguments: {} },
    ]);
    const run = await env.client.start('guarded', { prompt: 'read twice' });
    const result = await run.result();
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['read', 'read']);
    expect(await askedTools(run)).toEqual([]);
    const history = await run.handle.fetchHistory();
    const [prepared] = activityResults<PreparedCall[]>(history, 'prepareToolCalls');
    expect(prepared.map((p) => 'decision' in p && p.decision?.reason)).toEqual([
      "MCP tool 'read_only_tool' is read-only (server 'careful')",
      "MCP tool 'read_only_tool' is read-only (server 'careful')",
    ]);
    // Concurrency-safe: both calls were scheduled before either finished.
    const kinds = activityEvents(history, 'executeTool').map((e) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['scheduled', 'scheduled']);
  });

  test("a server's permission 'allow' runs its unannotated tools without asking, one at a time", async () => {
    script([
      { name: 'cwd', arguments: {} },
      { name: 'additive_tool', arguments: {} },
    ]);
    const run = await env.client.start('guarded', { prompt: 'cwd and add' });
    const result = await run.result();
    expect(toolMessages(result.messages).map((m) => [m.name, m.state])).toEqual([
      ['cwd', 'success'],
      ['additive_tool', 'success'],
    ]);
    expect(toolMessages(result.messages)[1].content).toBe('added');
    expect(await askedTools(run)).toEqual([]);
    const history = await run.handle.fetchHistory();
    const [prepared] = activityResults<PreparedCall[]>(history, 'prepareToolCalls');
    expect(prepared.map((p) => 'decision' in p && p.decision?.reason)).toEqual([
      "MCP tool 'cwd' is allowed by the configuration of MCP server 'trusted'",
      "MCP tool 'additive_tool' is allowed by the configuration of MCP server 'trusted'",
    ]);
    // Not read-only, so not concurrency-safe: the second call waited for the first.
    const kinds = activityEvents(history, 'executeTool').map((e) => e.kind);
    expect(kinds).toEqual(['scheduled', 'started', 'completed', 'scheduled', 'started', 'completed']);
  });

  test("destructiveHint asks, even on a server whose permission is 'allow'", async () => {
    script([{ name: 'destructive_tool', arguments: {} }]);
    const run = await env.client.start('guarded', { prompt: 'destroy' });
    const { pending } = await waitForPending(run, 1);
    expect(pending[0]).toMatchObject({ tool: 'destructive_tool', decision: { behavior: 'ask' } });
    await run.deny(pending[0].callId, 'not today');
    const result = await run.result();
    expect(toolMessages(result.messages)[0]).toMatchObject({ content: 'Permission denied by user: not today', state: 'denied' });
    expect(await askedTools(run)).toEqual(['destructive_tool']);
  });
});
