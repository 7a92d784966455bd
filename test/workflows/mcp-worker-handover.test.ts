import { z } from 'zod';
import type { AgentRun } from '../../src/client/agent-run';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentDescriptor } from '../../src/common/agent';
import { FailureTypes } from '../../src/common/failures';
import type { ToolMessage } from '../../src/common/messages';
import type { McpServersInput } from '../../src/mcp';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ModelScript, ScriptedModelServer, ScriptedTurnInfo } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { activityEvents, activityResults } from '../helpers/activity-history';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { mcpChildProcesses } from '../mcp/helpers/processes';
import { FAULT_SERVER } from '../mcp/helpers/servers';

const noteTool = defineTool({
  name: 'note',
  description: 'Write a note.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `noted: ${text}`,
});

// The ask rules park each run on an approval, the moment the test swaps the workers.
const askBeforeRunning = defineAgent({ name: 'handover-execute', instructions: 'Read.', permissions: { ask: ['read_only_tool'] } });
const askBeforeCalling = defineAgent({ name: 'handover-prepare', instructions: 'Note, then read.', tools: [noteTool], permissions: { ask: ['note'] } });
const agents = [askBeforeRunning, askBeforeCalling];

const withServer: McpServersInput = {
  shared: { command: process.execPath, args: [FAULT_SERVER], enableTools: ['read_only_tool'] },
};

type TestWorker = Awaited<ReturnType<typeof startTestWorker>>;

function toolMessages(messages: { role: string }[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

const summarize = (_req: unknown, info: ScriptedTurnInfo) => `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;

/** The failure of the activity's last attempt once it is Tool.Unavailable. */
async function unavailableFailure(run: AgentRun, activityType: string): Promise<{ message: string; attempt: number }> {
  return waitFor(async () => {
    const pending = (await run.handle.describe()).raw.pendingActivities ?? [];
    const activity = pending.find((a) => a.activityType?.name === activityType);
    const failure = activity?.lastFailure;
    if (failure?.applicationFailureInfo?.type !== FailureTypes.toolUnavailable) return undefined;
    return { message: failure.message ?? '', attempt: activity!.attempt ?? 0 };
  }, `${activityType} to fail with ${FailureTypes.toolUnavailable}`);
}

describe('every worker the same: a run keeps the tool list it started with', () => {
  let model: ScriptedModelServer;
  const workers: TestWorker[] = [];

  async function startWorker(taskQueue: string, mcpServers?: McpServersInput): Promise<TestWorker> {
    const worker = await startTestWorker(agents, taskQueue, model.baseURL, undefined, mcpServers ? { mcpServers } : {});
    workers.push(worker);
    return worker;
  }

  async function stopWorker(worker: TestWorker): Promise<void> {
    workers.splice(workers.indexOf(worker), 1);
    await worker.stop();
  }

  async function start(agent: string, script: ModelScript): Promise<{ run: AgentRun; taskQueue: string }> {
    model.setScript(script);
    const taskQueue = uniqueTaskQueue('handover');
    await startWorker(taskQueue, withServer);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    return { run: await client.start(agent, { prompt: 'go' }), taskQueue };
  }

  beforeAll(async () => {
    model = await startScriptedModelServer({});
  });

  afterEach(async () => {
    for (const worker of [...workers]) await stopWorker(worker);
    expect(mcpChildProcesses()).toEqual([]);
  });

  afterAll(async () => {
    await model?.close();
  });

  test('a tool call that reaches a worker without the MCP server fails retryably; a worker with it runs the call', async () => {
    const { run, taskQueue } = await start('handover-execute', (req, info) =>
      info.turnIndex === 0 ? { toolCalls: [{ name: 'read_only_tool', arguments: {} }] } : summarize(req, info),
    );
    const { pending } = await waitForPending(run, 1);
    const [descriptor] = activityResults<AgentDescriptor>(await run.handle.fetchHistory(), 'describeAgent');
    expect(descriptor.tools.find((t) => t.name === 'read_only_tool')?.source).toEqual({
      kind: 'mcp',
      server: 'shared',
      toolName: 'read_only_tool',
    });

    await stopWorker(workers[0]);
    const without = await startWorker(taskQueue);
    expect(without.worker.registry.get('handover-execute')!.toolkit.has('read_only_tool')).toBe(false);
    await run.approve(pending[0].callId);
    const failure = await unavailableFailure(run, 'executeTool');
    expect(failure.message).toBe(
      "Tool 'read_only_tool' of agent 'handover-execute' cannot run on this worker " +
        '(it is not registered here; is its MCP server connected?); another worker may run it.',
    );

    await stopWorker(without);
    await startWorker(taskQueue, withServer);
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages)[0]).toMatchObject({ name: 'read_only_tool', content: 'read', state: 'success' });
    const started = activityEvents(await run.handle.fetchHistory(), 'executeTool').filter((e) => e.kind === 'started');
    expect(started.at(-1)!.attempt).toBeGreaterThan(1);
    expect(started.at(-1)!.lastFailure?.type).toBe(FailureTypes.toolUnavailable);
  });

  test('a worker without the MCP server still offers its tools to the model, and hands the call on', async () => {
    const { run, taskQueue } = await start('handover-prepare', (req, info) => {
      if (info.turnIndex === 0) return { toolCalls: [{ name: 'note', arguments: { text: 'first' } }] };
      if (info.turnIndex === 1) return { toolCalls: [{ name: 'read_only_tool', arguments: {} }] };
      return summarize(req, info);
    });
    const { pending } = await waitForPending(run, 1);

    await stopWorker(workers[0]);
    const without = await startWorker(taskQueue);
    await run.approve(pending[0].callId);
    // The second model call ran on the worker without the server, with the tool list recorded at the start.
    // A single call is checked by the activity that runs it.
    const failure = await unavailableFailure(run, 'executeTool');
    expect(failure.message).toMatch(/^Tool 'read_only_tool' of agent 'handover-prepare' is not available on this worker/);
    // A worker without the tool uses none of the call's own attempts (read-only: 5).
    await waitFor(async () => ((await unavailableFailure(run, 'executeTool')).attempt > 5 ? true : undefined), 'more attempts than the call owns', 60_000);
    const secondRequest = model.requests.filter((r) => r.turnIndex === 1).at(-1)!;
    expect((secondRequest.body.tools ?? []).map((t) => t.function.name).sort()).toEqual(['note', 'read_only_tool']);

    await stopWorker(without);
    await startWorker(taskQueue, withServer);
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['noted: first', 'read']);
  });
});
