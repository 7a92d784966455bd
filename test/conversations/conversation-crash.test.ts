import type { ChildProcess } from 'node:child_process';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { crashAgent } from '../fixtures/worker-process';
import { startTestWorker } from '../helpers/agent-test-env';
import { killProcess, killWhenToolRuns, spawnWorker } from '../helpers/crash-worker';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

describe('a conversation whose worker is killed', () => {
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: (_request, info) => {
        if (info.lastUserText === 'take a nap') return info.toolResults.length ? { text: `Woke up: ${info.toolResults[0]!.content}` } : { toolCalls: [{ name: 'sleep', arguments: { ms: 3000 } }] };
        return { text: `echo: ${info.lastUserText}` };
      },
    });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await model.close();
  });

  test('SIGKILL during a turn and between turns: other workers answer every message, nothing is lost', async () => {
    const taskQueue = uniqueTaskQueue('conversation-crash');
    child = await spawnWorker(taskQueue, model.baseURL);
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const conversation = client.conversation('crash-test', { sessionId: 'crash' });
    expect((await conversation.send('hello')).output).toBe('echo: hello');

    // During a turn: the tool runs on the child when it dies; the next worker retries it.
    const nap = await conversation.send('take a nap', { wait: false });
    await killWhenToolRuns(conversation.run, child);
    const second = await startTestWorker([crashAgent], taskQueue, model.baseURL);
    try {
      expect(await nap.result()).toMatchObject({ turn: 2, status: 'completed', output: 'Woke up: slept 3000 ms' });
    } finally {
      await second.stop();
    }

    // Between turns: a fresh worker process answers, then dies while the conversation waits.
    child = await spawnWorker(taskQueue, model.baseURL);
    expect((await conversation.send('still here?')).output).toBe('echo: still here?');
    await killProcess(child);
    const third = await startTestWorker([crashAgent], taskQueue, model.baseURL);
    try {
      expect(await conversation.send('and now?')).toMatchObject({ turn: 4, output: 'echo: and now?' });
      const state = await conversation.run.state();
      expect(state.messageCount).toBe(1 + 2 + 4 + 2 + 2);
      expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 4 });
    } finally {
      await third.stop();
    }
  });
});
