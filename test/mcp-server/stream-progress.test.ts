import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentClient } from '../../src/client/agent-client';
import { createAgentMcpServer } from '../../src/mcp-server/agent-mcp-server';
import { TEXT_MARGIN } from '../../src/mcp-server/text-progress';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { crashStreamer } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { killProcess, spawnWorker } from '../helpers/crash-worker';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

// 4 characters a chunk, one chunk every 80 ms: about 6 s of streaming; the first line of text (160 characters) is told after about 3 s, and the kill follows it.
const ANSWER =
  'When the worker that writes this answer is killed in the middle of it, Temporal gives the model call ' +
  'to another worker once its heartbeat is overdue; the progress notifications say the call was made again ' +
  'and its text starts over, read from the run stream of the second worker.';
const RESTARTED = 'the model call is made again (attempt 2); its text starts over';

describe("the MCP server's progress notifications follow the run's stream", () => {
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;
  let second: { stop(): Promise<void> } | undefined;
  let mcpClient: Client | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: [ANSWER], chunkDelayMs: 80 });
  });
  afterAll(async () => {
    await mcpClient?.close();
    if (child?.exitCode === null && child.signalCode === null) await killProcess(child);
    await second?.stop();
    await model?.close();
  });

  test("an agent tool's progress carries the model's text line by line, read from the stream, and after its worker is killed the retry's text", async () => {
    const taskQueue = uniqueTaskQueue('mcp-stream-crash');
    child = await spawnWorker(taskQueue, model.baseURL);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const server = createAgentMcpServer({ client, agents: [{ name: 'crash-streamer', description: 'Answers at length.' }] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    mcpClient = new Client({ name: 'durable-agent-test', version: '1.0.0' });
    await mcpClient.connect(clientSide);

    const progress: string[] = [];
    let killedAndReplaced: Promise<void> | undefined;
    const result = await mcpClient.callTool({ name: 'crash-streamer', arguments: { prompt: 'explain' } }, CallToolResultSchema, {
      timeout: 120_000,
      onprogress: (update) => {
        progress.push(update.message ?? '');
        if (!killedAndReplaced && progress.some((line) => line.startsWith(TEXT_MARGIN))) {
          // The worker dies without warning while the model is still writing; a second worker takes the retry.
          const worker = child!;
          killedAndReplaced = killProcess(worker).then(async () => {
            second = await startTestWorker([crashStreamer], taskQueue, model.baseURL);
          });
        }
      },
    });
    await killedAndReplaced;
    expect(killedAndReplaced).toBeDefined();

    const answer = result as CallToolResult;
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0]).toEqual({ type: 'text', text: ANSWER });

    const textOf = (lines: string[]) => lines.filter((line) => line.startsWith(TEXT_MARGIN)).map((line) => line.slice(TEXT_MARGIN.length));
    const restarts = progress.filter((line) => line.includes(RESTARTED));
    expect(restarts).toHaveLength(1);
    const restartAt = progress.indexOf(restarts[0]!);

    // Before the kill: the answer's beginning, cut off. After it: the retry's text from its start, read live from the second worker.
    const before = textOf(progress.slice(0, restartAt));
    const after = textOf(progress.slice(restartAt));
    expect(before.length).toBeGreaterThan(0);
    expect(before.join(' ').length).toBeLessThan(ANSWER.length);
    expect(ANSWER.startsWith(before.join(' '))).toBe(true);
    expect(after.length).toBeGreaterThan(1);
    expect(after.join(' ')).toBe(ANSWER);
    expect(after.every((line) => line.length <= 160)).toBe(true);

    // The text stands between the call's start and its end, as the run's events tell them.
    const started = progress.findIndex((line) => line.includes('▶ model scripted-model'));
    const finished = progress.findIndex((line) => line.includes('◀ model scripted-model'));
    expect(started).toBeGreaterThanOrEqual(0);
    expect(started).toBeLessThan(progress.findIndex((line) => line.startsWith(TEXT_MARGIN)));
    expect(finished).toBeGreaterThan(progress.map((line) => line.startsWith(TEXT_MARGIN)).lastIndexOf(true));
    expect(progress.at(-1)).toContain('■ completed');

    // The model was asked twice for the one turn: the killed attempt and its retry.
    expect(model.requests.filter((request) => request.turnIndex === 0)).toHaveLength(2);
  }, 120_000);
});
