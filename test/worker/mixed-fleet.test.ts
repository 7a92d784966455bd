import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { FailureTypes } from '../../src/common/failures';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { activityEvents } from '../helpers/activity-history';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

/** What the refund tool really did, so the test sees that an approved refund runs once, on the right worker. */
const refunds: string[] = [];

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => {
    refunds.push(order_id);
    return `refunded ${order_id}`;
  },
});
const lookup = defineTool({ name: 'lookup', description: 'Look an order up.', input: z.object({ order_id: z.string() }), readOnly: true, execute: ({ order_id }) => `${order_id}: delivered` });

// Two agents modules, as two teams would ship them, on one task queue.
const shop = defineAgent({ name: 'fleet-shop', model: 'fleet-shop', instructions: 'Refund.', tools: [refund], permissions: { ask: ['refund'] } });
const support = defineAgent({ name: 'fleet-support', model: 'fleet-support', instructions: 'Look up.', tools: [lookup] });

type TestWorker = Awaited<ReturnType<typeof startTestWorker>>;

describe('a fleet of two agents modules on one task queue: a worker that does not serve a run leaves its steps to one that does', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  let shopWorker: TestWorker | undefined;
  let supportWorker: TestWorker | undefined;
  const taskQueue = uniqueTaskQueue('fleet');

  beforeAll(async () => {
    model = await startScriptedModelServer({
      byModel: {
        'fleet-shop': (request, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: /ORD-\w+/.exec(String(request.messages[1]?.content))![0] } }] } : `Shop: ${info.toolResults[0]!.content}`),
        'fleet-support': (request, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'lookup', arguments: { order_id: 'ORD-9' } }] } : `Support: ${info.toolResults[0]!.content}`),
      },
    });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    shopWorker = await startTestWorker([shop], taskQueue, model.baseURL);
    supportWorker = await startTestWorker([support], taskQueue, model.baseURL);
  });
  afterAll(async () => {
    await shopWorker?.stop();
    await supportWorker?.stop();
    await model?.close();
  });

  test('runs of both agents started on the shared queue all finish: none fails for reaching the other worker', async () => {
    const runs = await Promise.all([
      ...['ORD-1', 'ORD-2', 'ORD-3', 'ORD-4'].map((order) => client.start('fleet-shop', { prompt: `Refund ${order}` })),
      ...[1, 2, 3, 4].map(() => client.start('fleet-support', { prompt: 'Where is ORD-9?' })),
    ]);
    for (const run of runs.slice(0, 4)) {
      const { pending } = await waitForPending(run);
      await run.approve(pending[0]!.callId);
    }
    const outputs = await Promise.all(runs.map(async (run) => (await run.result()).output));
    expect(outputs).toEqual(['Shop: refunded ORD-1', 'Shop: refunded ORD-2', 'Shop: refunded ORD-3', 'Shop: refunded ORD-4', ...Array(4).fill('Support: ORD-9: delivered')]);
    // Each worker sees the other on the queue, and says so.
    expect(await shopWorker!.worker.fleetWarnings()).toEqual([expect.stringContaining('which serves fleet-support (this one: fleet-shop)')]);
  }, 60_000);

  test('an approval given while only the other module\'s worker is up is not turned into a tool failure: the refund runs once, when a worker that serves it starts', async () => {
    const run = await client.start('fleet-shop', { prompt: 'Refund ORD-7' });
    const { pending } = await waitForPending(run);
    await shopWorker!.stop();
    shopWorker = undefined;
    refunds.length = 0;
    await run.approve(pending[0]!.callId);

    // The support worker takes the refund's steps and leaves them: the run says what it waits for.
    const details = await waitFor(async () => {
      const text = (await run.handle.query(workflowMetadataQuery)).currentDetails ?? '';
      return text.includes("waiting for a worker that serves agent 'fleet-shop'") ? text : undefined;
    }, 'the run to say it waits for a worker of its agent', 30_000);
    expect(details).toContain('serves fleet-support');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(refunds).toEqual([]);
    expect((await run.execution()).status).toBe('RUNNING');

    shopWorker = await startTestWorker([shop], taskQueue, model.baseURL);
    expect((await run.result()).output).toBe('Shop: refunded ORD-7');
    expect(refunds).toEqual(['ORD-7']);
    // Nothing was reported failed: the attempts the other worker refused are Agent.NotServedHere, and the step completed.
    const events = activityEvents(await run.handle.fetchHistory(), 'executeTool');
    expect(events.filter((event) => event.kind === 'failed' || event.kind === 'timed_out')).toEqual([]);
    expect(events.some((event) => event.lastFailure?.type === FailureTypes.notServedHere)).toBe(true);
  }, 90_000);

  test('a run started while no worker of the queue serves its agent waits for one, and goes on when one starts', async () => {
    await shopWorker!.stop();
    shopWorker = undefined;
    const run = await client.start('fleet-shop', { prompt: 'Refund ORD-8' });
    await waitFor(async () => {
      const text = (await run.handle.query(workflowMetadataQuery)).currentDetails ?? '';
      return text.includes("waiting for a worker that serves agent 'fleet-shop'") ? true : undefined;
    }, 'the run to wait for a worker of its agent', 30_000);
    expect((await run.execution()).status).toBe('RUNNING');
    shopWorker = await startTestWorker([shop], taskQueue, model.baseURL);
    const { pending } = await waitForPending(run, 1, 60_000);
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe('Shop: refunded ORD-8');
  }, 120_000);
});
