import { WorkflowFailedError } from '@temporalio/client';
import type { AgentEvent } from '../../src/common/events';
import { AGENT_STATUS } from '../../src/common/search-attributes';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { abortedCalls, delegator, foreman, gatekeeper, lead, twinLead, logistics, manager, nest, refunds, serial, solo, resetStudies, studyIntervals, subAgentScripts } from './sub-agent-agents';

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('sub-agents: agents that call agents as child workflows', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    // Only the top-level agents are given: the worker serves the agents their agentTools name.
    env = await startAgentTestEnv({ agents: [lead, manager, delegator, nest, logistics, solo, serial, foreman, gatekeeper, twinLead], byModel: subAgentScripts });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('two sub-agents run in parallel as child workflows; their answers are the tool results and their usage rolls up', async () => {
    resetStudies({ inPairs: true });
    const run = await env.client.start('lead', { prompt: 'Research tides and winds.', userId: 'u-42' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    // Each child got its task as its prompt, and the parent's runtime context (its tool saw the user).
    expect(result.output).toBe('Combined: Found: notes on tides for u-42 | Found: notes on winds for u-42');

    const calls = result.messages.find((m) => m.role === 'assistant')!.toolCalls!;
    const childIds = calls.map((call) => `${run.workflowId}/${call.id}`);
    // In the order they finished.
    expect(result.subAgents!.map((s) => s.workflowId).sort()).toEqual(childIds);
    for (const id of childIds) {
      const description = await env.client.get(id).handle.describe();
      expect(description.parentExecution?.workflowId).toBe(run.workflowId);
      expect(description.status.name).toBe('COMPLETED');
      // The Web UI lists it under the parent's Relationships with this summary.
      expect(await description.staticSummary()).toMatch(/^sub-agent researcher: (tides|winds)$/);
    }
    // Concurrency-safe calls ran side by side: each study started before the other ended (each waits for its partner).
    const [a, b] = studyIntervals;
    expect(a!.start).toBeLessThan(b!.end);
    expect(b!.start).toBeLessThan(a!.end);
    resetStudies();

    // Usage: the parent's own two calls (110 + 220 tokens) plus each child's, as each child reported it.
    const children = await Promise.all(result.subAgents!.map((s) => env.client.get(s.workflowId).result()));
    expect(result.subAgents!.map((s) => s.usage)).toEqual(children.map((c) => c.usage));
    const childTokens = children.reduce((sum, c) => sum + c.usage.totalTokens, 0);
    expect(childTokens).toBe(660);
    expect(result.usage.totalTokens).toBe(330 + childTokens);

    const events = await run.eventsAfter(0);
    expect(ofType(events, 'subagent_started').map((e) => e.workflowId).sort()).toEqual(childIds);
    expect(ofType(events, 'subagent_finished').map((e) => e.status)).toEqual(['completed', 'completed']);
    await maybeRecordHistory(run, 'sub-agents-parallel');
  });

  test('a grandchild asking for approval shows in the top-level run and is answered through the top-level handle', async () => {
    refunds.length = 0;
    const run = await env.client.start('manager', { prompt: 'Settle the ORD-7 dispute.' });
    const state = await waitForPending(run);
    const waiting = state.pending[0]!;
    expect(waiting).toMatchObject({ tool: 'issue_refund', kind: 'approval', agent: 'refunder', input: { order_id: 'ORD-7', amount: 20 } });
    // Deterministic ids: <top>/<call of manager>/<call of disputes>.
    expect(waiting.workflowId).toMatch(new RegExp(`^${run.workflowId}/[^/]+/[^/]+$`));
    expect(state.status).toBe('awaiting_approval');
    await waitFor(async () => {
      const attributes = (await run.handle.describe()).typedSearchAttributes;
      return attributes.get(AGENT_STATUS) === 'awaiting_approval' ? true : undefined;
    }, 'the AgentStatus search attribute of the top-level run');
    // The Web UI's current details of the top-level run name the call and the command that answers it.
    const details = (await run.handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
    expect(details).toContain(`**issue_refund** in sub-agent **refunder** (\`${waiting.workflowId}\`) \``);
    expect(details.split('\n')).toContain(`durable-agent approve ${waiting.workflowId} ${waiting.callId}`);
    const waits = ofType(await run.eventsAfter(0), 'subagent_waiting');
    expect(waits.at(-1)!.calls).toEqual([{ callId: waiting.callId, tool: 'issue_refund', kind: 'approval', workflowId: waiting.workflowId }]);

    // An update sent straight to the top-level run is refused with where the call waits; AgentRun follows it.
    await run.approve(waiting.callId, { input: { order_id: 'ORD-7', amount: 15 } });
    const result = await run.result();
    expect(result.output).toBe('Manager: Disputes: Refunder: refunded 15 on ORD-7');
    expect(refunds).toEqual([{ orderId: 'ORD-7', amount: 15 }]);
    await maybeRecordHistory(run, 'sub-agents-grandchild-approval');
    await maybeRecordHistory(env.client.get(waiting.workflowId!), 'sub-agents-grandchild');
  });

  test('`pending` lists a grandchild’s call once, and `approve` given the top-level id answers it', async () => {
    refunds.length = 0;
    const run = await env.client.start('manager', { prompt: 'Settle the ORD-7 dispute.' });
    const waiting = (await waitForPending(run)).pending[0]!;
    const holder = waiting.workflowId!;

    const one = await runCliCaptured(['pending', run.workflowId, ...common]);
    expect(one.code).toBe(0);
    expect(one.out).toContain(`    approve: durable-agent approve ${holder} ${waiting.callId}`);
    // Without an id, every waiting run is read (the top-level one, the child and the grandchild): the call shows once.
    await waitFor(async () => {
      const listed = (await env.client.list({ query: `AgentStatus = 'awaiting_approval' AND WorkflowId STARTS_WITH '${run.workflowId}'` })).length;
      return listed === 3 ? true : undefined;
    }, 'three waiting runs in visibility');
    const all = await runCliCaptured(['pending', ...common]);
    expect(all.out.filter((line) => line.includes(`  approval  ${waiting.callId}  issue_refund`) && line.includes(holder))).toHaveLength(1);

    const approved = await runCliCaptured(['approve', run.workflowId, waiting.callId, ...common]);
    expect(approved.code).toBe(0);
    expect((await run.result()).output).toBe('Manager: Disputes: Refunder: refunded 20 on ORD-7');
  });

  test('a signal to the top-level run (the Web UI way) reaches the grandchild; a deny comes back as the result', async () => {
    const run = await env.client.start('manager', { prompt: 'Settle the ORD-7 dispute.' });
    const waiting = (await waitForPending(run)).pending[0]!;
    await run.handle.signal('deny', { callId: waiting.callId, reason: 'not this one' });
    const result = await run.result();
    expect(result.output).toBe('Manager: Disputes: Refunder: Permission denied by user: not this one');
  });

  test('cancelling the top-level run cancels the waiting child and grandchild', async () => {
    const run = await env.client.start('manager', { prompt: 'Settle the ORD-7 dispute.' });
    const waiting = (await waitForPending(run)).pending[0]!;
    const child = waiting.workflowId!.split('/').slice(0, 2).join('/');
    await run.cancel();
    await expect(run.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    for (const id of [child, waiting.workflowId!]) {
      const status = await waitFor(async () => {
        const name = (await env.client.get(id).handle.describe()).status.name;
        return name === 'RUNNING' ? undefined : name;
      }, `${id} to close`);
      expect(status).toBe('CANCELLED');
    }
    expect((await run.handle.describe()).status.name).toBe('CANCELLED');
  });

  test("cancelling the top-level run reaches a sub-agent's running tool through ctx.signal", async () => {
    const run = await env.client.start('foreman', { prompt: 'Get working.' });
    const childId = await waitFor(async () => (await run.eventsAfter(0)).find((e) => e.type === 'subagent_started')?.workflowId, 'the sub-agent');
    const callId = await waitFor(
      async () => ofType(await env.client.get(childId).eventsAfter(0).catch(() => []), 'tool_call_started')[0]?.callId,
      'the sub-agent tool to start',
    );
    await run.cancel();
    await expect(run.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    // The tool hears of it at its next heartbeat.
    await waitFor(async () => (abortedCalls.includes(callId) ? true : undefined), 'the tool to see ctx.signal abort', 10_000);
    expect((await env.client.get(childId).handle.describe()).status.name).toBe('CANCELLED');
  });

  test('a failing sub-agent is an error result for the parent, which goes on; its spending still rolls up', async () => {
    const run = await env.client.start('delegator', { prompt: 'Delegate.' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/^Delegator saw: Error: the 'flaky' agent \(run .+\) failed: .*unsupported parameter/);
    expect(result.subAgents).toEqual([expect.objectContaining({ agent: 'flaky', status: 'failed', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 } })]);
    expect(result.usage.totalTokens).toBe(110 + 220 + 10);
  });

  test('sub-agents nest only as deep as the agent tool allows', async () => {
    const run = await env.client.start('nest', { prompt: 'Go as deep as you can.' });
    const result = await run.result();
    expect(result.output).toMatch(
      /^Level answer: Level answer: Level answer: Error: the 'nest' agent was not started: it would run 3 levels below the top-level run, and sub-agents may nest at most 2 deep\.$/,
    );
    // Top → depth 1 → depth 2, whose call for a third level was refused.
    expect(result.subAgents!.map((s) => s.status)).toEqual(['completed']);
    const depth1 = await env.client.get(result.subAgents![0]!.workflowId).result();
    expect(depth1.subAgents!.map((s) => s.status)).toEqual(['completed']);
    const depth2 = await env.client.get(depth1.subAgents![0]!.workflowId).result();
    expect(depth2.subAgents!.map((s) => s.status)).toEqual(['refused']);
  });

  test("an external tool in a sub-agent waits in the parent's state too, and a result submitted through the parent reaches it", async () => {
    const run = await env.client.start('logistics', { prompt: 'Ship the parcel.' });
    const state = await waitForPending(run);
    expect(state.status).toBe('awaiting_external');
    const waiting = state.pending[0]!;
    expect(waiting).toMatchObject({ kind: 'external', tool: 'ship_parcel', agent: 'shipper' });
    await run.submit(waiting.callId, 'tracking SF-9');
    expect((await run.result()).output).toBe('Logistics: Shipped: tracking SF-9');
  });

  test('a sub-agent starts with the session rules a person allowed only when its agent tool passes them on', async () => {
    refunds.length = 0;
    const run = await env.client.start('gatekeeper', { prompt: 'Refund ORD-1, then have refunders refund ORD-7.' });
    const own = (await waitForPending(run)).pending[0]!;
    expect(own).toMatchObject({ tool: 'issue_refund' });
    expect(own.workflowId).toBeUndefined();
    await run.approve(own.callId, { remember: true });
    // The trusted refunder inherits the rule and refunds without asking; the fresh one asks.
    const fresh = await waitFor(async () => (await run.state()).pending.find((call) => call.agent === 'refunder'), 'the fresh refunder to ask');
    const finished = ofType(await run.eventsAfter(0), 'subagent_finished');
    expect(finished).toEqual([expect.objectContaining({ agent: 'refunder', status: 'completed' })]);
    expect(refunds).toEqual([
      { orderId: 'ORD-1', amount: 5 },
      { orderId: 'ORD-7', amount: 20 },
    ]);
    await run.deny(fresh.callId, 'once is enough');
    const result = await run.result();
    expect(result.output).toBe('Gate: refunded 5 on ORD-1 | Refunder: refunded 20 on ORD-7 | Refunder: Permission denied by user: once is enough');
  });

  test('a call id that waits in two sub-agents at once is answered through the id of the run that holds it', async () => {
    const run = await env.client.start('twin-lead', { prompt: 'Refund twice.' });
    const { pending } = await waitForPending(run, 2);
    expect(pending[0]!.callId).toBe(pending[1]!.callId);
    expect(pending[0]!.workflowId).not.toBe(pending[1]!.workflowId);
    await expect(run.approve(pending[0]!.callId)).rejects.toThrow(/waits in 2 sub-agent runs .*: answer it through the id of the run that holds it/);
    for (const call of pending) await env.client.get(call.workflowId!).approve(call.callId);
    expect((await run.result()).output).toBe('Twins: Refunder: refunded 20 on ORD-7 | Refunder: refunded 20 on ORD-7');
  });

  test("with runtime: 'none' the sub-agent does not get the parent's runtime context", async () => {
    const run = await env.client.start('solo', { prompt: 'Ask about tides.', userId: 'u-42' });
    expect((await run.result()).output).toBe('Solo: Found: notes on tides for nobody');
  });

  test('a parent that continues as new between sub-agent calls keeps every answer and the roll-up', async () => {
    const run = await env.client.start('serial', { prompt: 'Tides, then winds.', continueAsNewAfterEvents: 5 });
    const result = await run.result();
    expect(result.output).toBe('Serial: Found: notes on tides for nobody | Found: notes on winds for nobody');
    expect(result.subAgents!.map((s) => s.status)).toEqual(['completed', 'completed']);
    const runs: string[] = [];
    for await (const execution of env.client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) runs.push(execution.status.name);
    expect(runs).toContain('CONTINUED_AS_NEW');
  });

  test("`watch` of the parent shows each sub-agent's steps indented under its start", async () => {
    const run = await env.client.start('lead', { prompt: 'Research tides and winds.' });
    await run.result();
    const watched = await runCliCaptured(['watch', run.workflowId, ...common]);
    expect(watched.code).toBe(0);
    const lines = watched.out;
    const started = lines.findIndex((line) => /^\d\d:\d\d:\d\d   ▶ sub-agent researcher \(.+\): tides$/.test(line));
    const childTool = lines.findIndex((line) => /^ {4}\d\d:\d\d:\d\d   ▶ tool study \{"topic":"tides"\}$/.test(line));
    const finished = lines.findIndex((line) => /^\d\d:\d\d:\d\d   ◀ sub-agent researcher completed: Found: notes on tides/.test(line));
    expect(started).toBeGreaterThanOrEqual(0);
    expect(childTool).toBeGreaterThan(started);
    expect(finished).toBeGreaterThan(childTool);
    expect(lines.some((line) => /^ {4}\d\d:\d\d:\d\d ■ completed: Found: notes on winds/.test(line))).toBe(true);
  });
});
