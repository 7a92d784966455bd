import fc from 'fast-check';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { startAgentTestEnv, type AgentTestEnv } from '../../helpers/agent-test-env';
import { toolMessages } from '../../helpers/tool-messages';
import { waitForPending } from '../../helpers/wait-for';
import { workflowTaskFailures } from '../../helpers/workflow-task-failures';
import { SIGNALS, UPDATES } from './bad-payloads';
import { boundaryAgent, PARKED_BATCH } from './boundary-agent';

/** Random JSON, and objects shaped almost like the real payloads, so the checks past the first field are reached too. */
function payloads(): fc.Arbitrary<unknown> {
  const nearly = fc.record(
    {
      callId: fc.oneof(fc.string(), fc.constant('call_0_0'), fc.jsonValue()),
      approved: fc.oneof(fc.boolean(), fc.jsonValue()),
      reason: fc.oneof(fc.string(), fc.jsonValue()),
      input: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      remember: fc.oneof(fc.constant('session'), fc.string()),
      output: fc.oneof(fc.string(), fc.jsonValue()),
      isError: fc.oneof(fc.boolean(), fc.jsonValue()),
      activate: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
      deactivate: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(fc.jsonValue(), nearly);
}

describe('random payloads at every handler', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [boundaryAgent] });
  });
  afterAll(async () => env?.stop());

  test('no signal, update or query payload fails a workflow task; the run then finishes normally', async () => {
    env.model.setScript((_req, info) =>
      info.turnIndex === 0 ? { toolCalls: PARKED_BATCH } : `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    );
    const run = await env.client.start('boundary', { prompt: 'refund and ship' });
    const parked = await waitForPending(run, 3);
    const real = new Set(parked.pending.map((p) => p.callId));

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SIGNALS, ...UPDATES, 'events', 'conversation'), payloads(), async (handler, payload) => {
        // A payload naming a real call could legitimately answer it; the property is about everything else.
        fc.pre(!real.has((payload as { callId?: unknown } | null)?.callId as string));
        if ((SIGNALS as readonly string[]).includes(handler)) await run.handle.signal(handler, payload);
        else if ((UPDATES as readonly string[]).includes(handler)) {
          await run.handle.executeUpdate(handler, { args: [payload] }).catch((error: unknown) => {
            if (!(error instanceof WorkflowUpdateFailedError)) throw error;
          });
        } else {
          await run.handle.query(handler, payload).catch((error: Error) => expect(error.message).toMatch(new RegExp(`${handler}: `)));
        }
      }),
      { numRuns: 150, seed: 20261130 },
    );

    expect(await workflowTaskFailures(run)).toEqual([]);
    const state = await run.state();
    // A random `{}` is a valid approveAll, which may have approved the two refunds; the external call still waits.
    expect(state.pending.filter((p) => p.kind === 'external').map((p) => p.callId)).toEqual([parked.pending.find((p) => p.kind === 'external')!.callId]);
    for (const call of state.pending.filter((p) => p.kind === 'approval')) await run.approve(call.callId);
    await run.submit(parked.pending.find((p) => p.kind === 'external')!.callId, 'tracking SF42');
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages).map((m) => m.state)).toEqual(['success', 'success', 'success']);
    expect(await workflowTaskFailures(run)).toEqual([]);
  });
});
