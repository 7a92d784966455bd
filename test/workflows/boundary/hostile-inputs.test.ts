import { workflowMetadataQuery } from '@temporalio/workflow';
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import type { AgentRun } from '../../../src/client/agent-run';
import type { AgentEvent } from '../../../src/common/events';
import { startAgentTestEnv, type AgentTestEnv } from '../../helpers/agent-test-env';
import { runCliCaptured } from '../../helpers/cli-capture';
import { maybeRecordHistory } from '../../helpers/record-history';
import { toolMessages } from '../../helpers/tool-messages';
import { waitFor, waitForPending } from '../../helpers/wait-for';
import { workflowTaskFailures } from '../../helpers/workflow-task-failures';
import { BAD_PAYLOADS, SIGNALS, UPDATES } from './bad-payloads';
import { boundaryAgent, PARKED_BATCH } from './boundary-agent';

const MiB = 1024 * 1024;

async function rejectedEvents(run: AgentRun): Promise<Extract<AgentEvent, { type: 'input_rejected' }>[]> {
  return (await run.eventsAfter(0)).filter((e): e is Extract<AgentEvent, { type: 'input_rejected' }> => e.type === 'input_rejected');
}

async function updateError(run: AgentRun, name: string, payload: unknown): Promise<string> {
  try {
    await run.handle.executeUpdate(name, { args: [payload] });
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    return (error as WorkflowUpdateFailedError).cause?.message ?? '';
  }
  throw new Error(`update ${name} accepted ${JSON.stringify(payload)?.slice(0, 100)}`);
}

describe('nothing from outside can break a run', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [boundaryAgent] });
  });
  afterAll(async () => env?.stop());

  const cliConnection = () => ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];

  async function parkedRun(): Promise<{ run: AgentRun; refundA: string; refundB: string; ship: string }> {
    env.model.setScript((_req, info) =>
      info.turnIndex === 0 ? { toolCalls: PARKED_BATCH } : `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    );
    const run = await env.client.start('boundary', { prompt: 'refund and ship' });
    const state = await waitForPending(run, 3);
    const idOf = (tool: string, index = 0) => state.pending.filter((p) => p.tool === tool)[index]!.callId;
    const [refundA, refundB, ship] = [idOf('refund'), idOf('refund', 1), idOf('ship_parcel')];
    return { run, refundA, refundB, ship };
  }

  test('a table of bad payloads: every signal is rejected with an event, every update in its validator, every query with an error', async () => {
    const { run, refundA, refundB, ship } = await parkedRun();

    for (const name of SIGNALS) for (const payload of BAD_PAYLOADS) await run.handle.signal(name, payload);
    const events = await waitFor(async () => {
      const rejected = await rejectedEvents(run);
      return rejected.length >= SIGNALS.length * BAD_PAYLOADS.length ? rejected : undefined;
    }, 'an input_rejected event for every bad signal');
    expect(events).toHaveLength(SIGNALS.length * BAD_PAYLOADS.length);
    for (const name of SIGNALS) expect(events.filter((e) => e.handler === name)).toHaveLength(BAD_PAYLOADS.length);
    // The malformed setGroups of the report: `{"activate":5}` says what is wrong.
    expect(events.find((e) => e.handler === 'setGroups' && /activate/.test(e.reason))?.reason).toMatch(/^setGroups: activate: Expected array, received number/);
    // approveAll with a string payload approves nothing.
    expect(events.some((e) => e.handler === 'approveAll' && /Expected object, received string/.test(e.reason))).toBe(true);

    for (const name of UPDATES) {
      for (const payload of BAD_PAYLOADS) expect(await updateError(run, name, payload)).toMatch(new RegExp(`^${name}: `));
    }
    for (const bad of ['x', -1, 1.5, { n: 1 }, [0]]) {
      await expect(run.handle.query('events', bad)).rejects.toThrow(/events: /);
      await expect(run.handle.query('conversation', bad)).rejects.toThrow(/conversation: /);
    }
    await run.handle.signal('approv', { callId: refundA });
    await waitFor(async () => ((await rejectedEvents(run)).some((e) => e.handler === 'approv') ? true : undefined), 'the unknown signal reported');

    const state = await run.state();
    expect(state.pending.map((p) => p.callId).sort()).toEqual([refundA, refundB, ship].sort());
    expect(state.activeGroups).toEqual(['extras']);

    // Still fully responsive: a valid setGroups, then the answers, and the run finishes normally.
    await run.setGroups({ deactivate: ['extras'] });
    await waitFor(async () => ((await run.state()).activeGroups.length === 0 ? true : undefined), 'groups switched');
    await run.approve(refundA);
    await run.deny(refundB, 'no');
    await run.submit(ship, 'tracking SF42');
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(toolMessages(result.messages).map((m) => m.state)).toEqual(['success', 'denied', 'success']);
    expect(await workflowTaskFailures(run)).toEqual([]);
    await maybeRecordHistory(run, 'bad-payloads-rejected');
  });

  test('updates of the wrong kind, for decided calls, or too large are rejected; nothing is silently lost', async () => {
    const { run, refundA, refundB, ship } = await parkedRun();

    expect(await updateError(run, 'decide', { callId: ship, approved: true })).toBe(
      `tool call '${ship}' waits for an external result, not an approval: submit its result instead`,
    );
    expect(await updateError(run, 'submitToolResultUpdate', { callId: refundA, output: 'lost?' })).toBe(
      `tool call '${refundA}' waits for approval, not an external result: approve or deny it instead`,
    );
    await expect(run.submit(refundA, 'lost?')).rejects.toThrow(/waits for approval, not an external result/);

    // Over the 1 MiB default: refused in the validator, with the limit named; nothing reaches history.
    expect(await updateError(run, 'decide', { callId: refundA, approved: true, input: { order_id: 'x'.repeat(1.5 * MiB), amount: 1 } })).toBe(
      'decide: the payload is 1.5 MiB, over the limit of 1 MiB (1048576 bytes)',
    );
    // A reason quotes what was sent, capped: the refusal of an unknown field of 1 MiB stays far below Temporal's 2 MiB.
    const oddField = await updateError(run, 'decide', { callId: refundA, approved: true, ['k'.repeat(MiB - 64)]: 1 });
    expect(oddField).toMatch(/^decide: unknown field\(s\) 'k+\n\[\.\.\. output truncated: showing the first 2000 of \d+ characters \.\.\.\]$/);
    // Over Temporal's own 2 MiB: the client refuses to send it; a raw sender gets the server's refusal
    // (history.maxInFlightUpdatePayloads), here from a connection that does not retry it.
    const huge = 'x'.repeat(3 * MiB);
    await expect(run.submit(ship, huge)).rejects.toThrow(
      'submitToolResultUpdate: the payload is 3 MiB, over the limit of 1 MiB (1048576 bytes); it was not sent',
    );
    const once = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS!, interceptors: [] });
    try {
      const raw = new Client({ connection: once }).workflow.getHandle(run.workflowId);
      await expect(raw.executeUpdate('submitToolResultUpdate', { args: [{ callId: ship, output: huge }] })).rejects.toMatchObject({
        cause: { message: '8 RESOURCE_EXHAUSTED: limit on total payload size of in-flight updates has been reached (2031616 bytes)' },
      });
    } finally {
      await once.close();
    }
    const cli = await runCliCaptured(['approve', run.workflowId, refundA, '--input', JSON.stringify({ order_id: huge, amount: 1 }), ...cliConnection()]);
    expect(cli.code).toBe(1);
    expect(cli.err.join('\n')).toContain('decide: the payload is 3 MiB, over the limit of 1 MiB (1048576 bytes); it was not sent');
    await run.handle.signal('approve', { callId: refundA, input: { order_id: 'y'.repeat(1.5 * MiB), amount: 1 } });
    const bigSignal = await waitFor(
      async () => (await rejectedEvents(run)).find((e) => e.handler === 'approve'),
      'the oversized approve signal reported',
    );
    expect(bigSignal).toMatchObject({ callId: refundA, reason: expect.stringMatching(/^approve: the payload is 1\.5 MiB, over the limit of 1 MiB/) });

    // Pending means pending: once one call of the batch is decided it no longer shows as waiting.
    await run.approve(refundA);
    const state = await run.state();
    expect(state.pending.map((p) => p.callId).sort()).toEqual([refundB, ship].sort());
    const details = (await run.handle.query(workflowMetadataQuery)).currentDetails ?? '';
    expect(details).toContain(`durable-agent approve ${run.workflowId} ${refundB}`);
    expect(details).toContain(`durable-agent deny ${run.workflowId} ${refundB}`);
    expect(details).not.toContain(refundA);
    const pending = await runCliCaptured(['pending', run.workflowId, '--json', ...cliConnection()]);
    expect(JSON.parse(pending.out.join('\n')).calls.map((p: { callId: string }) => p.callId).sort()).toEqual([refundB, ship].sort());
    expect((await run.eventsAfter(0)).filter((e) => e.type === 'permission_decided').map((e) => (e as { callId: string }).callId)).toEqual([refundA]);
    expect(await updateError(run, 'decide', { callId: refundA, approved: false })).toBe(`tool call '${refundA}' was already decided`);

    // A deny reason is text, capped at 2,000 characters with a marker.
    const denial = await run.deny(refundB, 'r'.repeat(5_000));
    expect(denial.reason).toBe(`${'r'.repeat(2_000)}\n[... output truncated: showing the first 2000 of 5000 characters ...]`);
    // A submitted result is cut at maxResultChars like any tool result.
    const submitted = await run.submit(ship, 's'.repeat(100_000));
    expect(submitted.output).toHaveLength(1_000 + '\n[... output truncated: showing the first 1000 of 100000 characters ...]'.length);

    const result = await run.result();
    const results = toolMessages(result.messages);
    expect(results[0]).toMatchObject({ state: 'success', content: 'refunded 10 on A1' });
    expect(results[1]).toMatchObject({ state: 'denied', content: `Permission denied by user: ${'r'.repeat(2_000)}\n[... output truncated: showing the first 2000 of 5000 characters ...]` });
    expect(results[2]!.content).toMatch(/^s{1000}\n\[\.\.\. output truncated: showing the first 1000 of 100000 characters \.\.\.\]$/);
    expect(await workflowTaskFailures(run)).toEqual([]);
  });
});
