import { ALICE_TOKEN, bearer, itemUrl, startInbox } from '../inbox/inbox-kit';
import { CancelledFailure, NexusOperationFailure } from '@temporalio/common';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { fairnessPriority } from '../../src/client/fairness';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundsIssued, refundTool } from '../fixtures/approval-tools';
import { temporalCliPath } from '../helpers/dedicated-dev-server';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startTwoNamespaces, type TwoNamespaces } from './two-namespaces';
import type { runAgentOverNexus, failureOverNexus } from './caller-workflows';

const cliPath = temporalCliPath();
/** Named by the worker's config, as AGENT_NEXUS_SERVICE names it. */
const SERVICE = 'team-a-agents';
if (!cliPath) console.log('agents-over-nexus tests skipped: TEMPORAL_TEST_CLI is unset, so no dedicated dev server can be started');
const serverDescribe = cliPath ? describe : describe.skip;

const greeter = defineAgent({ name: 'nexus-greeter', instructions: 'Greet.' });
const forecaster = defineAgent({
  name: 'nexus-forecaster',
  instructions: 'Answer with the forecast.',
  output: z.object({ city: z.string(), temperature: z.number() }),
});
const shop = defineAgent({ name: 'nexus-shop', instructions: 'Refund when asked.', tools: [refundTool], permissions: { ask: ['refund'] } });

function script() {
  return (_req: unknown, info: { turnIndex: number; lastUserText: string; toolResults: { content: string }[] }) => {
    if (info.toolResults.length > 0) return `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;
    const order = /refund (\w+)/.exec(info.lastUserText)?.[1];
    if (order && info.turnIndex === 0) return { toolCalls: [{ name: 'refund', arguments: { order_id: order, amount: 30 } }] };
    const city = /forecast for (\w+)/.exec(info.lastUserText)?.[1];
    if (city) return JSON.stringify({ city, temperature: city.length });
    return `Hello from A, you said: ${info.lastUserText}`;
  };
}

serverDescribe('agents of namespace A run by workflows of namespace B through Nexus', () => {
  let env: TwoNamespaces;
  beforeAll(async () => {
    env = await startTwoNamespaces({ cliPath: cliPath!, agents: [greeter, forecaster, shop], script: script(), callerWorkflowsPath: require.resolve('./caller-workflows'), agentService: SERVICE });
  }, 120_000);
  afterAll(async () => env?.stop());
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  /** The run of A the caller asked for, once the operation has started it. */
  async function runOfA(id: string) {
    const run = env.agents.get(id);
    await waitFor(() => run.handle.describe().then(() => true, () => undefined), `the run ${id} in A`);
    return run;
  }

  const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

  function callAgent(agent: string, input: Parameters<typeof runAgentOverNexus>[3]) {
    return env.callers.workflow.start<typeof runAgentOverNexus>('runAgentOverNexus', {
      taskQueue: env.callerTaskQueue,
      workflowId: unique('caller'),
      args: [env.agentsEndpoint, SERVICE, agent, input],
    });
  }

  test("the caller gets the run's result, and the run is a normal run of A (listed, with its user and summary)", async () => {
    const id = unique('greet');
    const caller = await callAgent('nexus-greeter', { prompt: 'hi there', userId: 'u-b', id });
    const result = await caller.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Hello from A, you said: hi there');
    const listed = await waitFor(async () => {
      const runs = await env.agents.list({ query: `WorkflowId = '${id}'` });
      return runs[0]?.status === 'completed' ? runs : undefined;
    }, 'the run in the listing of A');
    expect(listed[0]).toMatchObject({ workflowId: id, agent: 'nexus-greeter', status: 'completed' });
    const described = await env.agents.get(id).handle.describe();
    expect(await described.staticSummary()).toBe('nexus-greeter: hi there');
    // Started as AgentClient.start would: the user's fairness key.
    expect(described.priority?.fairnessKey).toBe(fairnessPriority('u-b', undefined)!.fairnessKey);
    expect((await env.agents.get(id).state()).output).toBe('Hello from A, you said: hi there');
    expect(env.agentWorker.describe()).toContain(`Nexus service ${SERVICE}`);
  });

  test('an agent with an output schema: the caller gets the typed answer as data', async () => {
    const caller = await callAgent('nexus-forecaster', { prompt: 'forecast for Oslo' });
    const result = await caller.result();
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({ city: 'Oslo', temperature: 4 });
  });

  test("a call waiting for an approval is answered in A's inbox, and the caller then gets the result", async () => {
    const id = unique('refund');
    const caller = await callAgent('nexus-shop', { prompt: 'refund R1', id });
    const run = await runOfA(id);
    const state = await waitForPending(run, 1);
    const call = state.pending[0]!;
    expect(call).toMatchObject({ tool: 'refund', input: { order_id: 'R1', amount: 30 } });
    expect(refundsIssued).toEqual([]);
    const inbox = await startInbox(env.agents, env.agentTaskQueue);
    try {
      const url = itemUrl(inbox, id, call.callId);
      const field = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(text)?.[1];
      const page = await waitFor(async () => {
        const text = await (await fetch(url, { headers: bearer(ALICE_TOKEN) })).text();
        return field(text, 'csrf') && field(text, 'digest') ? text : undefined;
      }, "the call's page in A's inbox");
      const answered = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...bearer(ALICE_TOKEN), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: field(page, 'csrf')!, action: 'approve', 'arg:order_id': 'R1', 'arg:amount': '30', digest: field(page, 'digest')!, rules_version: field(page, 'rules_version')! }).toString(),
      });
      expect(answered.status).toBe(303);
    } finally {
      await inbox.close();
    }
    const result = await caller.result();
    expect(result.output).toBe('Results: refunded 30 on R1');
    expect(refundsIssued).toEqual([{ orderId: 'R1', amount: 30 }]);
    expect((await run.eventsAfter(0)).find((event) => event.type === 'permission_decided')).toMatchObject({ behavior: 'allow', answeredBy: 'alice' });
    await maybeRecordHistory(run, 'nexus-started-approved');
  });

  test('cancelling the caller cancels the operation: the run in A ends cancelled, its waiting call never runs', async () => {
    const id = unique('cancel');
    const caller = await callAgent('nexus-shop', { prompt: 'refund C1', id });
    const run = await runOfA(id);
    await waitForPending(run, 1);
    await caller.cancel();
    await expect(caller.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    const ended = await waitFor(async () => {
      const description = await run.handle.describe();
      return description.status.name === 'RUNNING' ? undefined : description;
    }, 'the run in A to end');
    expect(ended.status.name).toBe('CANCELLED');
    expect((await run.state()).status).toBe('cancelled');
    expect(refundsIssued).toEqual([]);
    await maybeRecordHistory(run, 'nexus-started-cancelled');
  });

  test("cancelling the run where it lives ends the caller's operation as cancelled", async () => {
    const id = unique('cancel-in-a');
    const caller = await callAgent('nexus-shop', { prompt: 'refund C2', id });
    const run = await runOfA(id);
    await waitForPending(run, 1);
    await run.cancel();
    const failure = await caller.result().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const operation = (failure as WorkflowFailedError).cause;
    expect(operation).toBeInstanceOf(NexusOperationFailure);
    expect((operation as NexusOperationFailure).cause).toBeInstanceOf(CancelledFailure);
    expect(refundsIssued).toEqual([]);
  });

  test('a bad input is refused by the handler (bad request, naming the field), and no run starts', async () => {
    const id = unique('refused');
    const caller = await env.callers.workflow.start<typeof failureOverNexus>('failureOverNexus', {
      taskQueue: env.callerTaskQueue,
      workflowId: unique('caller-bad'),
      args: [env.agentsEndpoint, SERVICE, 'nexus-greeter', { prompt: 'x', maxIters: 0, colour: 'red', id }],
    });
    const chain = await caller.result();
    const text = chain.join('\n');
    expect(text).toContain('HandlerError(BAD_REQUEST)');
    expect(text).toContain("Invalid input for agent 'nexus-greeter'");
    expect(text).toContain('maxIters must be at least 1');
    expect(text).toContain('unknown field colour');
    await expect(env.agents.get(id).handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  test("an id a run already has is a conflict: the caller's operation fails at once, the run is left alone", async () => {
    const id = unique('taken');
    await (await callAgent('nexus-greeter', { prompt: 'first', id })).result();
    const caller = await env.callers.workflow.start<typeof failureOverNexus>('failureOverNexus', {
      taskQueue: env.callerTaskQueue,
      workflowId: unique('caller-taken'),
      args: [env.agentsEndpoint, SERVICE, 'nexus-greeter', { prompt: 'second', id }],
    });
    const chain = (await caller.result()).join('\n');
    expect(chain).toContain('HandlerError(CONFLICT)');
    expect(chain).toContain(`A run with the id '${id}' exists already`);
    expect((await env.agents.get(id).state()).output).toBe('Hello from A, you said: first');
  });

  test("a service the worker does not serve (the default name here) is the caller's failure, and no run starts", async () => {
    const caller = await env.callers.workflow.start<typeof failureOverNexus>('failureOverNexus', {
      taskQueue: env.callerTaskQueue,
      workflowId: unique('caller-other-service'),
      args: [env.agentsEndpoint, 'durable-agent', 'nexus-greeter', { prompt: 'hello' }],
    });
    expect((await caller.result()).join('\n')).toContain('HandlerError(NOT_FOUND)');
  });
});
