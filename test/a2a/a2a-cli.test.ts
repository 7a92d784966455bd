import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TaskState, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { answerText, messageRequest } from '../helpers/a2a-kit';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { agents, a2aScripts } from '../fixtures/a2a-agents';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const MODULE = join(ROOT, 'test', 'fixtures', 'a2a-agents.ts');

describe('durable-agent a2a (the command)', () => {
  let env: AgentTestEnv;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents, byModel: a2aScripts });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await env?.stop();
  });

  function serve(extra: string[]): { child: ChildProcess; listening: Promise<{ url: string; agents: Record<string, string> }>; stderr: () => string } {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'a2a', '--module', MODULE, '--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue, ...extra], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (data) => (err += data));
    const listening = new Promise<{ url: string; agents: Record<string, string> }>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (data) => {
        out += data;
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { url: string; agents: Record<string, string> });
      });
      child.once('exit', (code) => reject(new Error(`a2a exited (${code}): ${err}`)));
    });
    return { child, listening, stderr: () => err };
  }

  test('serves the module’s agents on the port given: the SDK’s client reads a card and gets an answer; Ctrl-C stops it', async () => {
    const { child, listening } = serve(['--port', '0', '--json']);
    const { url, agents: urls } = await listening;
    expect(Object.keys(urls)).toEqual(['a2a-helper', 'a2a-refunds', 'a2a-stepper', 'a2a-weigher', 'a2a-writer']);
    expect(urls['a2a-helper']).toBe(`${url}/agents/a2a-helper/`);
    const client = await new ClientFactory().createFromUrl(urls['a2a-helper']!);
    const task = (await client.sendMessage(messageRequest('Where is ORD-1?'))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerText(task)).toBe('Helped: ORD-1 is on its way');
    // Several agents: the root card names where each one's is.
    const root = await fetch(`${url}/.well-known/agent-card.json`);
    expect(root.status).toBe(404);
    expect(await root.text()).toContain('/agents/a2a-helper');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  test('a bad flag is a usage error before anything listens', async () => {
    const { child, listening } = serve(['--port', 'eighty', '--json']);
    await expect(listening).rejects.toThrow(/--port must be a port number/);
    expect(child.exitCode).toBe(2);
  });
});
