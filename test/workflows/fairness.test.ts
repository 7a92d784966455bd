import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { fairnessPriority } from '../../src/client/fairness';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, startTestWorker, type AgentTestEnv } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

const workTool = defineTool({
  name: 'work',
  description: 'Work for a while.',
  input: z.object({}),
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 250)),
});
const laborer = defineAgent({ name: 'fair-laborer', instructions: 'Work once, then answer.', tools: [workTool] });

const BIG = 16;
const SMALL = 3;

/** When each of the small user's runs and the big user's runs ended, in ms after the big user's first start. */
async function race(client: AgentClient, fairness: boolean): Promise<{ big: number[]; small: number[] }> {
  const started = Date.now();
  const ended = (run: { result(): Promise<unknown> }) => run.result().then(() => Date.now() - started);
  const start = (userId: string) => client.start('fair-laborer', { prompt: 'go', userId, ...(fairness ? {} : { fairness: false }) });
  const big = await Promise.all(Array.from({ length: BIG }, () => start('big-user')));
  // The big user's backlog is queued before the small user's runs start.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const small = await Promise.all(Array.from({ length: SMALL }, () => start('small-user')));
  const [bigEnds, smallEnds] = await Promise.all([Promise.all(big.map(ended)), Promise.all(small.map(ended))]);
  return { big: bigEnds.sort((a, b) => a - b), small: smallEnds.sort((a, b) => a - b) };
}

describe('fairness between users on one task queue', () => {
  let env: AgentTestEnv;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let client: AgentClient;

  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [laborer],
      script: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'work', arguments: {} }] } : 'worked'),
    });
    // One activity at a time: the runs' model calls and tools queue up on the server.
    const taskQueue = uniqueTaskQueue('fair');
    worker = await startTestWorker([laborer], taskQueue, env.model.baseURL, undefined, {}, { workerOptions: { maxConcurrentActivityTaskExecutions: 1 } });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.stop();
  });

  test("a small user's runs are not held behind a big user's backlog; without fairness keys they are", async () => {
    const fair = await race(client, true);
    const fifo = await race(client, false);
    console.log(JSON.stringify({ fair, fifo }));
    const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
    // With keys, the small user's last run ends before half the big user's runs have.
    expect(fair.small.at(-1)!).toBeLessThan(median(fair.big));
    // First in, first out: the small user's runs wait for most of the backlog.
    expect(fifo.small.at(-1)!).toBeGreaterThan(median(fifo.big));
  }, 120_000);

  test("the key is the user's digest (never the user id) unless given, a long key is its digest, a weight is checked", () => {
    const alice = fairnessPriority('alice', undefined)!.fairnessKey!;
    expect(alice).toMatch(/^[0-9a-f]{64}$/);
    expect(fairnessPriority('alice', undefined)!.fairnessKey).toBe(alice);
    expect(fairnessPriority('bob', undefined)!.fairnessKey).not.toBe(alice);
    expect(fairnessPriority('alice', { key: 'tenant-7', weight: 3 })).toEqual({ fairnessKey: 'tenant-7', fairnessWeight: 3 });
    expect(fairnessPriority(undefined, undefined)).toBeUndefined();
    expect(fairnessPriority('alice', false)).toBeUndefined();
    const long = fairnessPriority(`${'x'.repeat(80)}@example.com`, undefined)!.fairnessKey!;
    expect(long).toMatch(/^[0-9a-f]{64}$/);
    expect(() => fairnessPriority('alice', { weight: 0 })).toThrow(/fairness.weight 0 is not a weight/);
  });
});
