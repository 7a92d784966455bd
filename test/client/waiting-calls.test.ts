import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { argumentsDigest } from '../../src/common/arguments-digest';
import { WAITS_MEMO_KEY, type WaitingCall } from '../../src/common/contracts/published-waits';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number(), note: z.string().optional() }),
  execute: ({ order_id, amount }) => `refunded ${amount} on ${order_id}`,
});
const ship = defineTool({ name: 'ship_parcel', description: 'Ship an order.', input: z.object({ order_id: z.string() }), external: true });

const desk = defineAgent({ name: 'waits-desk', model: 'waits-desk', instructions: 'Refund and ship.', tools: [refund, ship], permissions: { ask: ['refund'] } });
const clerk = defineAgent({ name: 'waits-clerk', model: 'waits-clerk', instructions: 'Refund.', tools: [refund], permissions: { ask: ['refund'] } });
const office = defineAgent({ name: 'waits-office', model: 'waits-office', instructions: 'Hand refunds to the clerk.', tools: [agentTool(clerk)] });

const quick = defineAgent({ name: 'waits-quick', model: 'waits-quick', instructions: 'Answer.', tools: [] });

const orderOf = (text: unknown) => /ORD-\w+/.exec(String(text))?.[0] ?? 'ORD-0';
const userText = (messages: { role: string; content?: unknown }[]) => messages.find((message) => message.role === 'user')?.content;

describe('waiting calls are listed from what runs publish: every one reachable by paging, no run asked', () => {
  let model: ScriptedModelServer;
  let client: AgentClient;
  let worker: { stop(): Promise<void> } | undefined;
  const taskQueue = uniqueTaskQueue('waits');
  const scope = `TaskQueue = '${taskQueue}'`;

  const startWorker = async () => (worker = await startTestWorker([desk, office, quick], taskQueue, model.baseURL));
  const allPages = async (pageSize: number) => {
    const pages: WaitingCall[][] = [];
    let token: string | undefined;
    do {
      const page = await client.waitingCalls({ pageSize, query: scope, ...(token ? { pageToken: token } : {}) });
      expect(page.unreadable).toEqual([]);
      pages.push(page.calls);
      token = page.nextPageToken;
    } while (token);
    return pages;
  };

  beforeAll(async () => {
    model = await startScriptedModelServer({
      byModel: {
        'waits-desk': (request, info) => {
          const order = orderOf(userText(request.messages));
          if (info.toolResults.length > 0) return `Done: ${info.toolResults.map((result) => result.content).join(' | ')}`;
          const note = order === 'ORD-BIG' ? { note: 'x'.repeat(2_000) } : {};
          return { toolCalls: [{ name: 'refund', arguments: { order_id: order, amount: 5, ...note } }, ...(order === 'ORD-BOTH' ? [{ name: 'ship_parcel', arguments: { order_id: order } }] : [])] };
        },
        'waits-clerk': (request, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: orderOf(userText(request.messages)), amount: 7 } }] } : `Clerk: ${info.toolResults[0]!.content}`),
        'waits-quick': () => 'Hi.',
        'waits-office': (request, info) =>
          info.toolResults.length === 0 ? { toolCalls: [{ name: 'waits-clerk', arguments: { task: `Refund ${orderOf(userText(request.messages))}` } }] } : `Office: ${info.toolResults[0]!.content}`,
      },
    });
    client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
    await startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  test('seven waiting runs, three a page: every call once, read while no worker could answer a query', async () => {
    const runs = await Promise.all(Array.from({ length: 7 }, (_, index) => client.start('waits-desk', { prompt: `Refund ORD-${index}`, userId: `u${index}` })));
    const states = await Promise.all(runs.map((run) => waitForPending(run)));
    await waitFor(async () => ((await allPages(100)).flat().length === 7 ? true : undefined), 'the seven calls in visibility');
    await worker!.stop();
    worker = undefined;

    const pages = await allPages(3);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const listed = pages.flat();
    expect(listed.map((call) => `${call.workflowId}/${call.callId}`).sort()).toEqual(runs.map((run, index) => `${run.workflowId}/${states[index]!.pending[0]!.callId}`).sort());
    const first = listed.find((call) => call.workflowId === runs[0]!.workflowId)!;
    expect(first).toEqual({
      workflowId: runs[0]!.workflowId,
      agent: 'waits-desk',
      startedBy: 'u0',
      callId: states[0]!.pending[0]!.callId,
      tool: 'refund',
      kind: 'approval',
      since: states[0]!.pending[0]!.since,
      reason: expect.any(String),
      suggestedRule: 'refund',
      input: { order_id: 'ORD-0', amount: 5 },
      preview: '{"order_id":"ORD-0","amount":5}',
      // What an answer sends back to bind itself to these arguments and rules (answer-rules).
      argumentsDigest: argumentsDigest({ order_id: 'ORD-0', amount: 5 }),
      rulesVersion: states[0]!.pending[0]!.rulesVersion,
    });
    expect(first.rulesVersion).toMatch(/^[0-9a-f]{64}$/);
    expect(await client.countWaitingRuns(scope)).toBe(7);

    await startWorker();
    for (const [index, run] of runs.entries()) await run.approve(states[index]!.pending[0]!.callId);
    await Promise.all(runs.map((run) => run.result()));
    await waitFor(async () => ((await allPages(100)).flat().length === 0 ? true : undefined), 'the list to empty');
  }, 120_000);

  test("a run's memo follows its waits: both kinds, long arguments as a preview, an answered call gone; the state's pending call carries the tool's schema", async () => {
    const both = await client.start('waits-desk', { prompt: 'Refund ORD-BOTH' });
    const big = await client.start('waits-desk', { prompt: 'Refund ORD-BIG' });
    const bothState = await waitForPending(both, 2);
    await waitForPending(big);
    expect(bothState.pending.map((call) => [call.tool, call.schema?.type])).toEqual([
      ['refund', 'object'],
      ['ship_parcel', 'object'],
    ]);
    expect(bothState.pending[0]!.schema).toMatchObject({ properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] });

    const listed = await waitFor(async () => {
      const calls = (await client.waitingCalls({ query: scope })).calls;
      return calls.length === 3 ? calls : undefined;
    }, 'three published calls');
    expect(listed.filter((call) => call.workflowId === both.workflowId).map((call) => call.kind).sort()).toEqual(['approval', 'external']);
    const long = listed.find((call) => call.workflowId === big.workflowId)!;
    expect(long.input).toBeUndefined();
    expect(long.preview).toHaveLength(201);
    expect(long.preview.startsWith('{"order_id":"ORD-BIG","amount":5,"note":"xxx')).toBe(true);

    await both.approve(bothState.pending[0]!.callId);
    const after = await waitFor(async () => {
      const calls = (await client.waitingCalls({ query: `${scope} AND WorkflowId = '${both.workflowId}'` })).calls;
      return calls.length === 1 ? calls : undefined;
    }, 'the approved call to leave the memo');
    expect(after[0]).toMatchObject({ tool: 'ship_parcel', kind: 'external' });
    await both.submit(after[0]!.callId, 'tracking 1');
    expect((await both.result()).output).toBe('Done: refunded 5 on ORD-BOTH | tracking 1');
    await big.cancel();
  }, 60_000);

  test("a sub-agent's call is listed once, at the sub-agent run that holds it, with the run a person started; a run that never waits publishes nothing", async () => {
    const run = await client.start('waits-office', { prompt: 'Refund ORD-SUB' });
    const { pending } = await waitForPending(run);
    const holder = pending[0]!.workflowId!;
    const listed = await waitFor(async () => {
      const calls = (await client.waitingCalls({ query: scope })).calls.filter((call) => call.tool === 'refund' && call.workflowId.startsWith(run.workflowId));
      return calls.length > 0 ? calls : undefined;
    }, 'the sub-agent call');
    expect(listed).toEqual([expect.objectContaining({ workflowId: holder, agent: 'waits-clerk', top: { workflowId: run.workflowId, agent: 'waits-office' } })]);
    await client.get(holder).approve(listed[0]!.callId);
    expect((await run.result()).output).toBe('Office: Clerk: refunded 7 on ORD-SUB');
    // The parent waited only on its child: it published an empty list; a run that never waited, none.
    const memo = (await run.handle.describe()).memo ?? {};
    expect(memo[WAITS_MEMO_KEY]).toMatchObject({ calls: [] });
    const plain = await client.start('waits-quick', { prompt: 'Hello' });
    expect((await plain.result()).output).toBe('Hi.');
    expect((await plain.handle.describe()).memo?.[WAITS_MEMO_KEY]).toBeUndefined();
  }, 60_000);

  test('a page token this client did not give is refused, naming it', async () => {
    await expect(client.waitingCalls({ pageToken: 'not a token!' })).rejects.toThrow('pageToken is not a page token this client gave');
  });
});
