import type { ChildProcess } from 'node:child_process';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { crashBoss } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { killWhenToolRuns, spawnWorker } from '../helpers/crash-worker';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';

describe('a sub-agent whose worker is killed', () => {
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: (request, info) => {
        const isBoss = String(request.messages[0]?.content) === 'You delegate naps.';
        if (isBoss) return info.toolResults.length ? { text: `Boss: ${info.toolResults[0]!.content}` } : { toolCalls: [{ name: 'napper', arguments: { task: 'take a nap' } }] };
        return info.toolResults.length ? { text: `Woke up: ${info.toolResults[0]!.content}` } : { toolCalls: [{ name: 'sleep', arguments: { ms: 3000 } }] };
      },
    });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await model.close();
  });

  test('SIGKILL while the sub-agent runs a tool: another worker finishes the child and the parent', async () => {
    const taskQueue = uniqueTaskQueue('sub-agent-crash');
    child = await spawnWorker(taskQueue, model.baseURL);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const run = await client.start('crash-boss', { prompt: 'Have someone nap.' });
    const childId = await waitFor(async () => (await run.eventsAfter(0)).find((e) => e.type === 'subagent_started')?.workflowId, 'the sub-agent to start');
    await killWhenToolRuns(client.get(childId), child);

    const second = await startTestWorker([crashBoss], taskQueue, model.baseURL);
    try {
      const result = await run.result();
      expect(result.output).toBe('Boss: Woke up: slept 3000 ms');
      expect(result.subAgents).toEqual([expect.objectContaining({ workflowId: childId, status: 'completed' })]);
    } finally {
      await second.stop();
    }
  });
});
