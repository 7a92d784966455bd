import { workflowTaskFailures } from '../helpers/workflow-task-failures';
import { startWorkflow, WorkflowRunOperationHandler } from '@temporalio/nexus';
import { HandlerError } from 'nexus-rpc';
import * as nexus from 'nexus-rpc';
import { z } from 'zod';
import type { AgentEvent } from '../../src/common/events';
import { defineAgent } from '../../src/toolkit/define-agent';
import { nexusTool } from '../../src/toolkit/nexus-tool';
import { temporalCliPath } from '../helpers/dedicated-dev-server';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { startTwoNamespaces, TOOLS_ENDPOINT, type TwoNamespaces } from './two-namespaces';

const cliPath = temporalCliPath();
if (!cliPath) console.log('nexus-tool tests skipped: TEMPORAL_TEST_CLI is unset, so no dedicated dev server can be started');
const serverDescribe = cliPath ? describe : describe.skip;

/** The other team's service, in namespace B. */
const ordersService = nexus.service('orders', {
  status: nexus.operation<{ order_id: string }, { order: string; status: string }>(),
  archive: nexus.operation<{ order_id: string }, string>({ name: 'archive-order' }),
  slow: nexus.operation<{ order_id: string }, string>(),
  legacy: nexus.operation<{ order_id: string }, unknown>(),
});

/** What the agents' worker logged. */
const workerLog: string[] = [];

/** What B's handlers were asked to do, so a test sees what really ran. */
const statusAsked: unknown[] = [];

const ordersHandler = nexus.serviceHandler(ordersService, {
  status: async (_ctx, input) => {
    statusAsked.push(input);
    return { order: input.order_id, status: `shipped (${input.order_id})` };
  },
  archive: async (_ctx, input) => {
    throw new HandlerError('BAD_REQUEST', `order ${input.order_id} is not closed`);
  },
  // An older version of `status`: its order is a number and it has no status.
  legacy: async (_ctx, input) => ({ order: Number(input.order_id.slice(1)) }),
  // Backed by a workflow of B that runs until it is cancelled.
  slow: new WorkflowRunOperationHandler<{ order_id: string }, string>((ctx, input) =>
    startWorkflow(ctx, 'slowOrderLookup', { workflowId: `slow-${input.order_id}`, args: [input.order_id] }),
  ),
});

const orderStatus = nexusTool({
  name: 'order_status',
  description: "Look up an order's status in the orders team's system.",
  endpoint: TOOLS_ENDPOINT,
  service: ordersService,
  operation: 'status',
  input: z.object({ order_id: z.string().regex(/^[A-Z]\d+$/, 'an order id like A7') }),
  output: z.object({ order: z.string(), status: z.string() }),
  permission: 'ask',
});

const archiveOrder = nexusTool({
  name: 'archive_order',
  description: 'Archive an order.',
  endpoint: TOOLS_ENDPOINT,
  service: 'orders',
  operation: ordersService.operations.archive,
  input: z.object({ order_id: z.string() }),
});

const slowLookup = nexusTool({ name: 'slow_lookup', description: 'A long lookup.', endpoint: TOOLS_ENDPOINT, service: ordersService, operation: 'slow', input: z.object({ order_id: z.string() }) });

const legacyStatus = nexusTool({
  name: 'legacy_status',
  description: "Look up an order's status in the old system.",
  endpoint: TOOLS_ENDPOINT,
  service: ordersService,
  operation: 'legacy',
  input: z.object({ order_id: z.string() }),
  output: z.object({ order: z.string(), status: z.string() }),
});

/** Names an endpoint no one created. */
const lostTool = nexusTool({ name: 'lost', description: 'Nowhere.', endpoint: 'no-such-endpoint', service: 'orders', operation: 'status', input: z.object({ order_id: z.string() }), timeout: '20s' });

const support = defineAgent({ name: 'nexus-support', instructions: 'Help with orders.', tools: [orderStatus, archiveOrder, slowLookup, legacyStatus, lostTool] });

function script() {
  return (_req: unknown, info: { turnIndex: number; lastUserText: string; toolResults: { content: string }[] }) => {
    if (info.toolResults.length > 0) return `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;
    const status = /status of (\S+)/.exec(info.lastUserText)?.[1];
    if (status) return { toolCalls: [{ name: 'order_status', arguments: { order_id: status } }] };
    const legacy = /legacy (\S+)/.exec(info.lastUserText)?.[1];
    if (legacy) return { toolCalls: [{ name: 'legacy_status', arguments: { order_id: legacy } }] };
    const slow = /slow (\S+)/.exec(info.lastUserText)?.[1];
    if (slow) return { toolCalls: [{ name: 'slow_lookup', arguments: { order_id: slow } }] };
    const archive = /archive (\S+)/.exec(info.lastUserText)?.[1];
    if (archive) return { toolCalls: [{ name: 'archive_order', arguments: { order_id: archive } }] };
    const lost = /lost (\S+)/.exec(info.lastUserText)?.[1];
    if (lost) return { toolCalls: [{ name: 'lost', arguments: { order_id: lost } }] };
    return 'nothing to do';
  };
}

const finished = (events: AgentEvent[]) => events.filter((event) => event.type === 'tool_call_finished');

serverDescribe("a nexusTool: an agent of namespace A calls another team's operation in namespace B", () => {
  let env: TwoNamespaces;
  beforeAll(async () => {
    env = await startTwoNamespaces({ cliPath: cliPath!, agents: [support], script: script(), callerServices: [ordersHandler], callerWorkflowsPath: require.resolve('./caller-workflows'), agentWorkerLog: (line) => workerLog.push(line) });
  }, 120_000);
  afterAll(async () => env?.stop());
  beforeEach(() => {
    statusAsked.length = 0;
  });

  test('the model sees it like any tool: its JSON Schema from zod', async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'hello' });
    await run.result();
    const tools = (env.model.requests.at(-1)!.body as { tools?: { function: { name: string; parameters: unknown } }[] }).tools ?? [];
    const spec = tools.find((tool) => tool.function.name === 'order_status');
    expect(spec?.function.parameters).toMatchObject({ type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] });
  });

  test('ask: the run waits for a person; approved, the operation runs in B and the model reads its result', async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'status of A7' });
    const state = await waitForPending(run, 1);
    expect(state.pending[0]).toMatchObject({ tool: 'order_status', input: { order_id: 'A7' } });
    expect(statusAsked).toEqual([]);
    await run.approve(state.pending[0]!.callId, { answeredBy: 'alice' });
    const result = await run.result();
    expect(result.output).toBe('Results: {"order":"A7","status":"shipped (A7)"}');
    expect(statusAsked).toEqual([{ order_id: 'A7' }]);
    expect(finished(await run.eventsAfter(0))).toEqual([expect.objectContaining({ tool: 'order_status', state: 'success', preview: '{"order":"A7","status":"shipped (A7)"}' })]);
    await maybeRecordHistory(run, 'nexus-tool-approved');
  });

  test('denied: the operation never runs, and the model reads the denial', async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'status of B8' });
    const state = await waitForPending(run, 1);
    await run.deny(state.pending[0]!.callId, 'not today');
    const result = await run.result();
    expect(result.output).toBe('Results: Permission denied by user: not today');
    expect(statusAsked).toEqual([]);
  });

  test("an input its schema refuses is the model's error, checked on the worker before any operation starts", async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'status of nope' });
    const result = await run.result();
    expect(result.output).toContain("Results: Error: Parameter validation failed for tool 'order_status':");
    expect(result.output).toContain('/order_id: an order id like A7');
    expect((await run.state()).pending).toEqual([]);
    expect(statusAsked).toEqual([]);
  });

  test('the worker warns at start of an endpoint the cluster lacks (a call of that tool could not be scheduled), and of no other', () => {
    const warnings = workerLog.filter((line) => line.includes('Nexus endpoint'));
    expect(warnings).toEqual([expect.stringContaining("The Nexus endpoint 'no-such-endpoint' (named by nexus-support/lost) does not exist on this cluster")]);
  });

  test('a call on that endpoint is an error result the model reads, not a command the server refuses: no workflow task fails', async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'lost G7' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe("Results: Error: the Nexus endpoint 'no-such-endpoint' does not exist on this cluster, so orders/status was not started");
    expect(await workflowTaskFailures(run)).toEqual([]);
  });

  test("the operation's failure goes back to the model as the tool's error; the run goes on", async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'archive C9' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Results: Error: Tool execution failed: the Nexus operation orders/archive-order failed: order C9 is not closed');
    await maybeRecordHistory(run, 'nexus-tool-failed');
  });

  test("a result its output schema refuses is the model's error, naming what is wrong; the run goes on", async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'legacy F3' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe(
      "Results: Error: the Nexus operation orders/legacy answered with a result the tool's output schema refuses:\n- /order: Expected string, received number\n- /status: Required",
    );
  });

  test('cancelling the run cancels its operation in flight: the workflow behind it in B and the run in A both end cancelled', async () => {
    const run = await env.agents.start('nexus-support', { prompt: 'slow E5' });
    const behind = env.callers.workflow.getHandle('slow-E5');
    await waitFor(() => behind.describe().then((description) => description.status.name === 'RUNNING' || undefined, () => undefined), 'the operation running in B');
    await run.cancel();
    const ended = async (describe: () => Promise<{ status: { name: string } }>, what: string) =>
      waitFor(() => describe().then((description) => (description.status.name === 'RUNNING' ? undefined : description.status.name)), what);
    expect(await ended(() => behind.describe(), 'the workflow in B to end')).toBe('CANCELLED');
    expect(await ended(() => run.handle.describe(), 'the run in A to end')).toBe('CANCELLED');
    expect((await run.state()).status).toBe('cancelled');
  });
});
