import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentClient } from '../../src/client/agent-client';
import { defineAgent } from '../../src/toolkit/define-agent';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitForPending } from '../helpers/wait-for';
import { recordedTracedFlag } from './traced-flag';
import { startTracedWorker } from './traced-worker';

const shop = defineAgent({ name: 'untraced-shop', instructions: 'Look up, then refund.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

describe('runs started by a worker without tracing', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue('untraced');

  beforeAll(async () => {
    model = await startScriptedModelServer({});
    model.setScript((_req, info) =>
      info.turnIndex === 0
        ? { toolCalls: [{ name: 'lookup', arguments: { key: 'ORD-1' } }, { name: 'refund', arguments: { order_id: 'ORD-1', amount: 30 } }] }
        : { text: `done: ${info.toolResults.map((r) => r.content).join(' | ')}` },
    );
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  });
  afterAll(async () => {
    await model.close();
  });

  test('stay untraced on a worker that traces: no workflow spans, no tracing mark in history', async () => {
    const exporter = new InMemorySpanExporter();
    let worker = await startTestWorker([shop], taskQueue, model.baseURL);
    try {
      const run = await client.start('untraced-shop', { prompt: 'Refund ORD-1.' });
      const { pending } = await waitForPending(run, 1);
      await worker.stop();
      // The traced worker replays the run from history, then finishes it.
      worker = await startTracedWorker({ agents: [shop], taskQueue, baseURL: model.baseURL, spanProcessor: new SimpleSpanProcessor(exporter) });
      await run.approve(pending[0]!.callId);
      expect((await run.result()).output).toBe('done: value of ORD-1 | refunded 30 on ORD-1');
      expect(await recordedTracedFlag(run)).toBe(false);
      await maybeRecordHistory(run, 'untraced-then-traced-worker');
      const names = exporter.getFinishedSpans().map((span) => span.name);
      // The traced worker's activity spans exist; the run's workflow spans do not.
      expect(names).toContain('RunActivity:executeTool');
      expect(names.filter((name) => /^(RunWorkflow|StartActivity|StartLocalActivity|HandleSignal|HandleUpdate|StartChildWorkflow)/.test(name))).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  test('a run started by a worker that traces records the mark', async () => {
    const worker = await startTracedWorker({ agents: [shop], taskQueue, baseURL: model.baseURL, spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()) });
    try {
      const run = await client.start('untraced-shop', { prompt: 'Refund ORD-1.' });
      const { pending } = await waitForPending(run, 1);
      await run.approve(pending[0]!.callId);
      await run.result();
      expect(await recordedTracedFlag(run)).toBe(true);
      await maybeRecordHistory(run, 'traced-run');
    } finally {
      await worker.stop();
    }
  });
});
