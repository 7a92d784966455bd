import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { AgentClient } from '../../src/client/agent-client';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import type { NotificationConfigInput } from '../../src/activities/notify/webhook-config';
import { startTestWorker } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startWebhookReceiver, type Answer, type WebhookReceiver } from '../helpers/webhook-receiver';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number() }),
  execute: ({ order_id, amount }) => `refunded ${amount} on ${order_id}`,
});
const shipParcel = defineTool({ name: 'ship_parcel', description: 'Ship an order.', input: z.object({ order_id: z.string() }), external: true });

const shape = { instructions: 'Refund, then ship.', tools: [refund, shipParcel], permissions: { ask: ['refund'] } };
const agent = defineAgent({ name: 'notified', ...shape });
/** An agent whose budget holds one model call: the second waits for a person to allow more. */
const frugal = defineAgent({ name: 'notified-frugal', ...shape, permissions: {}, budget: { tokens: 1 } });
/** The same agent whose calls wait 2 s at most. */
const briefAgent = defineAgent({ name: 'notified-briefly', ...shape, approvalTimeout: '2s', externalTimeout: '2s' });

const SECRET = 'a-webhook-secret-of-the-worker';

/** The receiver's side of the check, as docs/approvals.md shows it. */
function signedBy(raw: string, header: string | string[] | undefined, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Setup {
  client: AgentClient;
  model: ScriptedModelServer;
  stop(): Promise<void>;
}

async function workerWith(notifications: NotificationConfigInput | undefined, tool: 'refund' | 'ship_parcel' = 'refund', agents = [agent]): Promise<Setup> {
  const model = await startScriptedModelServer({
    script: (_request, info) =>
      info.toolResults.length === 0
        ? { toolCalls: [{ name: tool, arguments: tool === 'refund' ? { order_id: 'ORD-7', amount: 12 } : { order_id: 'ORD-7' } }] }
        : `Done: ${info.toolResults[0]!.content}`,
  });
  const taskQueue = uniqueTaskQueue('webhooks');
  const worker = await startTestWorker(agents, taskQueue, model.baseURL, undefined, {}, notifications ? { notifications } : {});
  const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  return {
    client,
    model,
    async stop() {
      await worker.stop();
      await model.close();
    },
  };
}

async function activityTypes(client: AgentClient, workflowId: string): Promise<string[]> {
  const history = await client.get(workflowId).handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
}

describe('webhooks: the worker tells a receiver when a call waits and when it is answered', () => {
  const receivers: WebhookReceiver[] = [];
  const setups: Setup[] = [];
  async function receiver(answer?: Answer) {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  }
  async function worker(...args: Parameters<typeof workerWith>) {
    const setup = await workerWith(...args);
    setups.push(setup);
    return setup;
  }
  afterAll(async () => {
    for (const setup of setups) await setup.stop();
    for (const started of receivers) await started.close();
  });

  test('a signed JSON body and a Slack body when the call waits and when it is answered, with a link to the inbox and no arguments', async () => {
    const json = await receiver();
    const slack = await receiver();
    const { client } = await worker({
      webhooks: [{ url: json.url, secret: SECRET }, { url: slack.url, format: 'slack' }],
      inboxUrl: 'http://127.0.0.1:8790',
    });
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    const callId = pending[0]!.callId;
    const waiting = await waitFor(async () => json.posts[0], 'the waiting notice');

    expect(waiting.body).toEqual({
      type: 'call.waiting',
      event: 'waiting',
      workflowId: run.workflowId,
      agent: 'notified',
      callId,
      tool: 'refund',
      kind: 'approval',
      reason: expect.any(String),
      at: expect.any(String),
      link: `http://127.0.0.1:8790/calls/${encodeURIComponent(run.workflowId)}/${callId}`,
    });
    expect(signedBy(waiting.raw, waiting.headers['x-durable-agent-signature'], SECRET)).toBe(true);
    expect(signedBy(waiting.raw.replace('ORD', 'ORX').replace('refund', 'refunD'), waiting.headers['x-durable-agent-signature'], SECRET)).toBe(false);
    expect(signedBy(waiting.raw, waiting.headers['x-durable-agent-signature'], 'another-secret-of-16+')).toBe(false);
    expect(waiting.raw).not.toContain('ORD-7');

    await run.approve(callId, { answeredBy: 'alice@example.com' });
    const answered = await waitFor(async () => json.posts[1], 'the answered notice');
    expect(answered.body).toMatchObject({ type: 'call.answered', callId, outcome: 'approved', answeredBy: 'alice@example.com' });
    expect(signedBy(answered.raw, answered.headers['x-durable-agent-signature'], SECRET)).toBe(true);

    const slackPosts = await waitFor(async () => (slack.posts.length >= 2 ? slack.posts : undefined), 'both Slack notices');
    expect(slackPosts[0]!.headers['x-durable-agent-signature']).toBeUndefined();
    expect(slackPosts[0]!.body).toMatchObject({ text: expect.stringContaining('waits for approval of `refund`') });
    expect(JSON.stringify(slackPosts[0]!.body.blocks)).toContain(`/calls/${encodeURIComponent(run.workflowId)}/${callId}`);
    expect(slackPosts[1]!.body.text).toContain('approved by alice@example.com');
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
    await maybeRecordHistory(run, 'webhook-notified-approval');
  });

  test('a budget reached is told like an approval: waiting with the question and the amount, answered with who allowed more', async () => {
    const json = await receiver();
    const slack = await receiver();
    const { client } = await worker({ webhooks: [{ url: json.url, includeArguments: true }, { url: slack.url, format: 'slack' }] }, 'refund', [frugal]);
    const run = await client.start('notified-frugal', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    expect(pending[0]).toMatchObject({ tool: '$budget', callId: 'budget-1' });
    const waiting = await waitFor(async () => json.posts[0], 'the waiting notice');
    expect(waiting.body).toMatchObject({ type: 'call.waiting', tool: '$budget', kind: 'approval', callId: 'budget-1', input: { tokens: 1 } });
    expect(String(waiting.body.reason)).toMatch(/^budget of 1 token reached \(0 tokens spent, the next model call ≈ \d+ tokens\): allow 1 token more\?$/);
    await run.approve('budget-1', { input: { tokens: 1_000_000 }, answeredBy: 'finance@example.com' });
    const answered = await waitFor(async () => json.posts[1], 'the answered notice');
    expect(answered.body).toMatchObject({ type: 'call.answered', tool: '$budget', outcome: 'approved', answeredBy: 'finance@example.com' });
    const slackPosts = await waitFor(async () => (slack.posts.length >= 2 ? slack.posts : undefined), 'both Slack notices');
    expect(slackPosts[0]!.body.text).toContain('waits for more budget');
    expect(slackPosts[1]!.body.text).toContain('approved by finance@example.com: more budget');
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
  });

  test('arguments only when the webhook asks for them; an external call is told too', async () => {
    const hook = await receiver();
    const { client } = await worker({ webhooks: [{ url: hook.url, includeArguments: true }] }, 'ship_parcel');
    const run = await client.start('notified', { prompt: 'ship ORD-7' });
    const { pending } = await waitForPending(run);
    const waiting = await waitFor(async () => hook.posts[0], 'the waiting notice');
    expect(waiting.body).toMatchObject({ type: 'call.waiting', kind: 'external', tool: 'ship_parcel', input: { order_id: 'ORD-7' } });
    await run.submit(pending[0]!.callId, 'tracking SF42', { answeredBy: 'warehouse' });
    const answered = await waitFor(async () => hook.posts[1], 'the answered notice');
    expect(answered.body).toMatchObject({ type: 'call.answered', kind: 'external', outcome: 'submitted', answeredBy: 'warehouse' });
    expect((await run.result()).output).toBe('Done: tracking SF42');
    await maybeRecordHistory(run, 'webhook-notified-external');
  });

  test('a call nobody answers in time is told as timed out, for an approval and for an external call', async () => {
    const json = await receiver();
    const slack = await receiver();
    const webhooks = [{ url: json.url }, { url: slack.url, format: 'slack' as const }];
    const approvals = await worker({ webhooks }, 'refund', [briefAgent]);
    const asked = await approvals.client.start('notified-briefly', { prompt: 'refund ORD-7' });
    const askedResult = await asked.result();
    expect(askedResult.status).toBe('completed');
    expect((await asked.eventsAfter(0)).filter((e) => e.type === 'permission_decided')).toEqual([expect.objectContaining({ by: 'timeout' })]);
    const timedOut = await waitFor(async () => json.posts.find((post) => post.body.type === 'call.answered'), 'the timed-out notice');
    expect(timedOut.body).toMatchObject({ workflowId: asked.workflowId, tool: 'refund', kind: 'approval', outcome: 'timed_out' });
    expect(timedOut.body).not.toHaveProperty('answeredBy');
    const slackPosts = await waitFor(async () => (slack.posts.length >= 2 ? slack.posts : undefined), 'both Slack notices');
    expect(slackPosts[1]!.body.text).toMatch(/^No answer came in time for /);

    const externals = await worker({ webhooks: [{ url: json.url }] }, 'ship_parcel', [briefAgent]);
    const shipped = await externals.client.start('notified-briefly', { prompt: 'ship ORD-7' });
    expect((await shipped.result()).status).toBe('completed');
    const externalTimedOut = await waitFor(
      async () => json.posts.find((post) => post.body.type === 'call.answered' && post.body.workflowId === shipped.workflowId),
      'the external call timed-out notice',
    );
    expect(externalTimedOut.body).toMatchObject({ tool: 'ship_parcel', kind: 'external', outcome: 'timed_out' });
  });

  test('a receiver that answers 500 is retried with backoff until it takes the notice; the run goes on meanwhile', async () => {
    const flaky = await receiver((index) => (index < 2 ? 500 : 200));
    const { client } = await worker({ webhooks: [{ url: flaky.url, secret: SECRET }] });
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    await waitFor(async () => (flaky.posts.length >= 3 ? true : undefined), 'three deliveries of the waiting notice', 30_000);
    expect(flaky.posts.slice(0, 3).map((post) => post.body.type)).toEqual(['call.waiting', 'call.waiting', 'call.waiting']);
    expect(new Set(flaky.posts.slice(0, 3).map((post) => post.raw)).size).toBe(1);
    await run.approve(pending[0]!.callId);
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
    // Retried until the hour is up, not for a number of attempts (0: Temporal's "no cap").
    const caps = (await run.handle.fetchHistory()).events!.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'notifyWait' ? [scheduled.retryPolicy?.maximumAttempts ?? 0] : [];
    });
    expect(caps.length).toBeGreaterThan(0);
    expect(new Set(caps)).toEqual(new Set([0]));
  });

  test('the answered notice reaches a receiver that failed once although the run ends right after the answer', async () => {
    // The waiting notice goes through; the answered one fails once, and the run ends before its retry.
    const flaky = await receiver((index) => (index === 1 ? 500 : 200));
    const { client } = await worker({ webhooks: [{ url: flaky.url }] });
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    await waitFor(async () => flaky.posts[0], 'the waiting notice');
    await run.approve(pending[0]!.callId, { answeredBy: 'alice' });
    expect((await run.result()).output).toBe('Done: refunded 12 on ORD-7');
    const delivered = await waitFor(async () => flaky.posts[2], 'the answered notice delivered after the run ended', 30_000);
    expect(delivered.body).toMatchObject({ type: 'call.answered', workflowId: run.workflowId, callId: pending[0]!.callId, outcome: 'approved', answeredBy: 'alice' });
    expect(flaky.posts[1]!.raw).toBe(delivered.raw);
    // The run handed it to a workflow of its own, which outlived it.
    const handover = client.client.workflow.getHandle(`${run.workflowId}/notices/${(await run.execution()).raw.workflowExecutionInfo!.execution!.runId}`);
    await handover.result();
    expect((await handover.describe()).status.name).toBe('COMPLETED');
  });

  test('a retry sends only to the webhooks not reached yet', async () => {
    const steady = await receiver();
    const flaky = await receiver((index) => (index < 2 ? 500 : 200));
    const { client } = await worker({ webhooks: [{ url: steady.url }, { url: flaky.url }] });
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    await waitFor(async () => (flaky.posts.length >= 3 ? true : undefined), 'three deliveries to the flaky receiver', 30_000);
    expect(steady.posts.map((post) => post.body.type)).toEqual(['call.waiting']);
    await run.approve(pending[0]!.callId);
    await run.result();
  });

  test('a receiver that never answers neither blocks nor fails the run', async () => {
    const silent = await receiver(() => 'hang');
    const { client } = await worker({ webhooks: [{ url: silent.url }] });
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    await waitFor(async () => silent.posts[0], 'the waiting notice');
    await run.approve(pending[0]!.callId);
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Done: refunded 12 on ORD-7');
    expect(await activityTypes(client, run.workflowId)).toContain('notifyWait');
  });

  test('a worker without webhooks schedules no notification', async () => {
    const { client } = await worker(undefined);
    const run = await client.start('notified', { prompt: 'refund ORD-7' });
    const { pending } = await waitForPending(run);
    await run.approve(pending[0]!.callId);
    await run.result();
    const types = await activityTypes(client, run.workflowId);
    expect(types).toContain('callModel');
    expect(types).not.toContain('notifyWait');
  });
});
