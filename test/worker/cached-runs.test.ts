import { DEFAULT_MAX_CACHED_RUNS, readWorkerConfig } from '../../src/worker/config';
import { defineAgent } from '../../src/toolkit/define-agent';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import { AgentClient } from '../../src/client/agent-client';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

const agent = defineAgent({ name: 'cached-runs', instructions: 'Refund.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

describe('the number of runs a worker keeps in memory', () => {
  test('defaults to DEFAULT_MAX_CACHED_RUNS; AGENT_MAX_CACHED_RUNS sets it; a bad value is refused with the reason', () => {
    expect(readWorkerConfig({}).maxCachedRuns).toBe(DEFAULT_MAX_CACHED_RUNS);
    expect(DEFAULT_MAX_CACHED_RUNS).toBe(150);
    expect(readWorkerConfig({ AGENT_MAX_CACHED_RUNS: ' 50 ' }).maxCachedRuns).toBe(50);
    expect(readWorkerConfig({ AGENT_MAX_CACHED_RUNS: '0' }).maxCachedRuns).toBe(0);
    for (const bad of ['1', '-3', '2.5', 'many']) {
      expect(() => readWorkerConfig({ AGENT_MAX_CACHED_RUNS: bad })).toThrow(`AGENT_MAX_CACHED_RUNS=${bad} is not a cache size: give 0 (no cache) or a whole number of at least 2.`);
    }
  });

  test('runs waiting for approval beyond the cache leave it, and each finishes once approved', async () => {
    const model = await startScriptedModelServer({});
    model.setScript((_req, info) =>
      info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'C1', amount: 1 } }] } : { text: `done: ${info.toolResults[0]!.content}` },
    );
    const taskQueue = uniqueTaskQueue('cached-runs');
    const worker = await startTestWorker([agent], taskQueue, model.baseURL, undefined, {}, { config: { taskQueue, defaultModel: 'scripted-model', namespace: 'default', maxCachedRuns: 2 } });
    const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    try {
      expect(worker.worker.worker.options.maxCachedWorkflows).toBe(2);
      const runs = await Promise.all(Array.from({ length: 6 }, () => client.start('cached-runs', { prompt: 'go' })));
      const pending = await Promise.all(runs.map((run) => waitForPending(run, 1)));
      // Six runs wait; the worker holds two at most.
      await waitFor(async () => worker.worker.worker.getStatus().numCachedWorkflows <= 2 || undefined, 'the cache to shrink to its bound');
      await Promise.all(runs.map((run, i) => run.approve(pending[i]!.pending[0]!.callId)));
      const results = await Promise.all(runs.map((run) => run.result()));
      expect(results.map((result) => result.output)).toEqual(Array(6).fill('done: refunded 1 on C1'));
    } finally {
      await worker.stop();
      await model.close();
    }
  });
});
