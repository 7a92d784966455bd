import { stateQuery } from '../../src/common/definitions';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';

const shop = defineAgent({ name: 'records-shop', instructions: 'Look up, refund, ship.', tools: [lookupTool, refundTool, shipTool], permissions: { ask: ['refund'] } });

describe("one record per tool call: the state query shows each call's phase, decisions and submissions", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [shop],
      script: [
        {
          toolCalls: [
            { name: 'lookup', arguments: { key: 'ORD-9' } },
            { name: 'refund', arguments: { order_id: 'ORD-9', amount: 9 } },
            { name: 'ship_parcel', arguments: { address: 'Dock 9' } },
          ],
        },
        'Done.',
      ],
    });
  });
  afterAll(() => env?.stop());

  test('a call asks, is approved with an edit, runs and settles; the external one waits for its result', async () => {
    const run = await env.client.start('records-shop', { prompt: 'go' });
    const asking = await waitForPending(run, 2);
    expect(asking.calls?.map((record) => [record.tool, record.phase.name])).toEqual([
      ['lookup', 'queued'],
      ['refund', 'awaiting_approval'],
      ['ship_parcel', 'awaiting_external'],
    ]);
    const refund = asking.calls!.find((record) => record.tool === 'refund')!;
    expect(refund).toMatchObject({ input: { order_id: 'ORD-9', amount: 9 }, permission: { behavior: 'ask' } });
    expect(typeof refund.askedAt).toBe('string');
    expect(asking.pending.map((call) => [call.callId, call.kind])).toEqual([
      [refund.callId, 'approval'],
      [asking.calls![2]!.callId, 'external'],
    ]);

    await run.approve(refund.callId, { input: { order_id: 'ORD-9', amount: 5 }, reason: 'half' });
    const shipping = await waitFor(async () => {
      const state = await run.handle.query(stateQuery);
      return state.calls?.[1]?.phase.name === 'settled' ? state : undefined;
    }, 'the refund to settle');
    expect(shipping.calls![0]).toMatchObject({ tool: 'lookup', phase: { name: 'settled', state: 'success' } });
    expect(shipping.calls![1]).toMatchObject({
      tool: 'refund',
      input: { order_id: 'ORD-9', amount: 5 },
      phase: { name: 'settled', state: 'success' },
      answer: { approved: true, reason: 'half', input: { order_id: 'ORD-9', amount: 5 } },
    });
    expect(shipping.calls![2]).toMatchObject({ tool: 'ship_parcel', phase: { name: 'awaiting_external' } });
    expect(shipping.pending.map((call) => call.kind)).toEqual(['external']);

    await run.submit(shipping.calls![2]!.callId, 'tracking D9');
    const result = await run.result();
    expect(result.output).toBe('Done.');
    const after = await run.handle.query(stateQuery);
    expect(after.calls).toEqual([]);
    expect(after.pending).toEqual([]);
    await maybeRecordHistory(run, 'call-records-edit-and-external');
  });
});
