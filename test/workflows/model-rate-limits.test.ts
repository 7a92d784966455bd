import type { ChildProcess } from 'node:child_process';
import { AgentClient } from '../../src/client/agent-client';
import { modelQuotaWorkflowId } from '../../src/common/model-limits';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { spawnWorkerProcess } from '../helpers/crash-worker';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor } from '../helpers/wait-for';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';

/** Three worker processes of one task queue, each with the same limits for `quota-model`. */
async function fleet(taskQueue: string, baseURL: string, limits: object): Promise<ChildProcess[]> {
  const env = { TASK_QUEUE: taskQueue, MODEL_BASE_URL: baseURL, MODEL_LIMITS: JSON.stringify({ 'quota-model': limits }) };
  return Promise.all([1, 2, 3].map((n) => spawnWorkerProcess('test/fixtures/worker-process.ts', env, `worker ${n}`)));
}

async function stopAll(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.exitCode !== null) return resolve();
          worker.once('exit', () => resolve());
          worker.kill('SIGTERM');
        }),
    ),
  );
}

/** Which workers ran each run's model call (the identity on its activity's started event). */
async function modelCallWorkers(client: AgentClient, workflowIds: string[]): Promise<Set<string>> {
  const identities = new Set<string>();
  for (const id of workflowIds) {
    const history = await client.get(id).handle.fetchHistory();
    for (const event of history.events ?? []) if (event.activityTaskStartedEventAttributes?.identity) identities.add(event.activityTaskStartedEventAttributes.identity);
  }
  return identities;
}

describe('model rate limits kept by the whole fleet (worker processes sharing a quota workflow)', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    model = await startScriptedModelServer({ script: () => 'ok' });
  });
  afterAll(async () => {
    await stopAll(workers);
    await model?.close();
  });

  test('requests per minute: calls of three workers, asked for at once, reach the provider 1/rpm of a minute apart; other models are not held', async () => {
    const taskQueue = uniqueTaskQueue('quota');
    workers.push(...(await fleet(taskQueue, model.baseURL, { requestsPerMinute: 120 })));
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    model.setScript(() => 'answered', { model: 'quota-model' });
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => client.start('quota-test', { prompt: `question ${i}` })));
    // Runs wait their turn for up to 6 s, in the order their calls asked, not the order they started:
    // of the last six started, some wait for seconds, and their streams say so.
    const followed = Promise.all(
      runs.slice(6).map(async (run) => {
        const told: string[] = [];
        for await (const item of run.stream()) if (item.type === 'model_quota_wait') told.push(item.text);
        return told;
      }),
    );
    const results = await Promise.all(runs.map((run) => run.result()));
    const told = (await followed).flat();
    expect(told.length).toBeGreaterThan(0);
    for (const text of told) expect(text).toMatch(/^waiting for model quota: quota-model \(120 requests per minute across the fleet\), \d+ call\(s\) ahead, starts in \d+ s$/);
    expect(results.map((result) => result.status)).toEqual(Array(12).fill('completed'));
    const arrivals = model.requests.filter((request) => request.model === 'quota-model').map((request) => request.at);
    expect(arrivals).toHaveLength(12);
    // 120 per minute: one each 508 ms (1/120 of 61 s), whichever worker sends it. A call starts at its time or a little
    // after (the worker's timer, its request, a busy machine), never before: no n calls arrive closer than
    // (n-1) × 500 ms less that lag (up to one slot here). Without the quota all 12 arrive within a second.
    for (let i = 0; i < arrivals.length; i++) {
      for (let j = i + 1; j < arrivals.length; j++) expect(arrivals[j]! - arrivals[i]!).toBeGreaterThanOrEqual((j - i - 1) * 500);
    }
    expect((await modelCallWorkers(client, runs.map((run) => run.workflowId))).size).toBeGreaterThanOrEqual(2);
    // The quota workflow is one per model on the task queue, and it knows the limits the workers gave.
    const quota = client.get(modelQuotaWorkflowId(taskQueue, 'quota-model')).handle;
    expect((await quota.describe()).type).toBe('modelQuotaWorkflow');
    await maybeRecordHistory(client.get(quota.workflowId), 'model-quota-granted');
    // A model without limits is called at once: the crash-test agent's default model.
    const before = model.requests.length;
    const free = await Promise.all(Array.from({ length: 4 }, (_, i) => client.start('crash-test', { prompt: `free ${i}` })));
    await Promise.all(free.map((run) => run.result()));
    const freeArrivals = model.requests.slice(before).map((request) => request.at);
    expect(Math.max(...freeArrivals) - Math.min(...freeArrivals)).toBeLessThan(400);
    await stopAll(workers.splice(0));
  });

  test("a 429 with retry-after pauses every worker's calls of the model until then; the refused call is made again after it", async () => {
    const taskQueue = uniqueTaskQueue('quota-429');
    workers.push(...(await fleet(taskQueue, model.baseURL, { requestsPerMinute: 600 })));
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    model.setScript([{ text: 'answered', faults: [{ status: 429, headers: { 'retry-after': '3' } }] }], { model: 'quota-model' });
    const before = model.requests.length;
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => client.start('quota-test', { prompt: `question ${i}` })));
    const results = await Promise.all(runs.map((run) => run.result()));
    expect(results.map((result) => result.output)).toEqual(Array(8).fill('answered'));
    const arrivals = model.requests.slice(before).filter((request) => request.model === 'quota-model').map((request) => request.at);
    // The first request was refused. Calls already starting when it came (the pause takes a round trip
    // to reach the quota workflow, up to a second on a loaded machine) may still go in the next
    // moments; after that nothing reached the provider until the 3 s it asked for had passed — at
    // 600 a minute, 19 calls would have between 1 and 2.9 s.
    expect(arrivals).toHaveLength(9);
    const refusedAt = arrivals[0]!;
    const later = arrivals.slice(1);
    expect(later.filter((at) => at < refusedAt + 1_000).length).toBeLessThanOrEqual(3);
    expect(later.filter((at) => at >= refusedAt + 1_000 && at < refusedAt + 2_900)).toEqual([]);
    const quota = client.get(modelQuotaWorkflowId(taskQueue, 'quota-model')).handle;
    expect(await quota.query<number>('pausedUntil')).toBeGreaterThanOrEqual(refusedAt + 2_900);
    await maybeRecordHistory(client.get(quota.workflowId), 'model-quota-paused');
    await stopAll(workers.splice(0));
  });

  test('a wait longer than an attempt may last goes on in the next attempt, which keeps its place in the queue', async () => {
    const taskQueue = uniqueTaskQueue('quota-long');
    workers.push(...(await fleet(taskQueue, model.baseURL, { requestsPerMinute: 6 })));
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    const before = model.requests.length;
    const runs = await Promise.all(Array.from({ length: 3 }, (_, i) => client.start('quota-brief', { prompt: `question ${i}` })));
    // The last call's turn is ~20 s away; its attempt may wait 12 s: a second attempt waits for the rest.
    const retried = await waitFor(
      async () => {
        for (const run of runs) {
          const { raw } = await run.handle.describe();
          const call = raw.pendingActivities?.find((activity) => activity.activityType?.name === 'callModel');
          if ((call?.attempt ?? 0) >= 2) return call;
        }
        return undefined;
      },
      'a second attempt of the waiting call',
      30_000,
    );
    expect(retried.lastFailure?.applicationFailureInfo?.type).toBe('Model.QuotaWait');
    const results = await Promise.all(runs.map((run) => run.result()));
    expect(results.map((result) => result.status)).toEqual(['completed', 'completed', 'completed']);
    const arrivals = model.requests.slice(before).map((request) => request.at);
    // Kept its place: the third call came one slot (61 s / 6) after the second, not at the end of a new queue.
    expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(2 * 10_166 - 1_000);
    expect(arrivals[2]! - arrivals[0]!).toBeLessThan(2 * 10_166 + 3_000);
    await stopAll(workers.splice(0));
  });

  test('a worker refuses limits that are not limits, naming the model', async () => {
    const { readModelLimits } = await import('../../src/worker/config');
    expect(() => readModelLimits('{"gpt-4o": {"requestsPerMinute": 0}}')).toThrow(/AGENT_MODEL_LIMITS: gpt-4o.requestsPerMinute: requestsPerMinute must be more than 0/);
    expect(() => readModelLimits('{"gpt-4o": {}}')).toThrow(/name requestsPerMinute, tokensPerMinute or both/);
    expect(() => readModelLimits('{"gpt-4o": {"rpm": 5}}')).toThrow(/Unrecognized key/);
    expect(() => readModelLimits('fast')).toThrow(/AGENT_MODEL_LIMITS is not JSON/);
    expect(readModelLimits('{"gpt-4o": {"tokensPerMinute": 30000}}')).toEqual({ 'gpt-4o': { tokensPerMinute: 30000 } });
  });
});
