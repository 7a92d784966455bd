import type { AgentRun } from '../../src/client/agent-run';
import { InvalidCursorError, type StreamItem } from '../../src/client/stream/stream-items';
import type { ModelScript } from '../../src/testing/scripted-model-types';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundTool } from '../fixtures/approval-tools';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCli } from '../../src/cli/run-cli';
import { testAddress, testNamespace } from '../helpers/temporal-env';
import { AgentClient } from '../../src/client/agent-client';
import { noWorkerTookIt } from '../helpers/query-refusals';

const ANSWER =
  'A durable agent keeps its conversation in the workflow, so a crashed worker loses nothing; ' +
  'the text a model writes reaches the page as it is written, and a reload goes on where it was.';
const CHILD_ANSWER = 'The sub-agent looked into it and found the parcel at the depot in Leeds.';

const writer = defineAgent({ name: 'stream-writer', instructions: 'Echo, then answer.', model: { name: 'writer', stream: true }, tools: [echoTool] });
const long = defineAgent({ name: 'stream-long', instructions: 'Echo a while.', model: { name: 'long', stream: true }, tools: [echoTool], maxIters: 100 });
const shop = defineAgent({ name: 'stream-shop', instructions: 'Refund.', model: { name: 'shop', stream: true }, tools: [refundTool], permissions: { ask: ['refund'] } });
const helper = defineAgent({ name: 'stream-helper', instructions: 'Answer.', model: { name: 'helper', stream: true }, tools: [echoTool] });
const boss = defineAgent({ name: 'stream-boss', instructions: 'Delegate.', model: { name: 'boss', stream: true }, tools: [agentTool(helper, { name: 'helper' })] });

const ECHOES = 12;
const scripts: Record<string, ModelScript> = {
  writer: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'echo', arguments: { text: 'first' } }] } : ANSWER),
  long: (_request, info) => (info.turnIndex < ECHOES ? { text: `step ${info.turnIndex + 1}. `, toolCalls: [{ name: 'echo', arguments: { text: `e${info.turnIndex}` } }] } : ANSWER),
  shop: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'A-1', amount: 30 } }] } : 'Refunded.'),
  helper: () => CHILD_ANSWER,
  boss: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'helper', arguments: { task: 'find the parcel' } }] } : `Done: ${info.toolResults[0]?.content}`),
};

/** Reads the stream to its end; `breakEvery` drops the connection after that many items and goes on from the last cursor. */
async function readAll(run: AgentRun, breakEvery?: number): Promise<{ items: StreamItem[]; reconnects: number }> {
  const items: StreamItem[] = [];
  let from: string | undefined;
  let reconnects = 0;
  for (;;) {
    let taken = 0;
    let broke = false;
    for await (const item of run.stream({ ...(from ? { from } : {}) })) {
      items.push(item);
      from = item.cursor;
      if (breakEvery && ++taken >= breakEvery) {
        broke = true;
        break;
      }
    }
    if (!broke) return { items, reconnects };
    reconnects++;
  }
}

const eventsOf = (items: StreamItem[], workflowId: string) =>
  items.flatMap((item) => (item.type === 'event' && item.workflowId === workflowId ? [item.event] : []));
const textOf = (items: StreamItem[], workflowId: string, iteration: number) =>
  items.map((item) => (item.type === 'text_delta' && item.workflowId === workflowId && item.iteration === iteration ? item.text : '')).join('');

describe('run.stream(): events and deltas, resumable', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [writer, long, shop, helper, boss], byModel: scripts, modelServer: { chunkDelayMs: 15 } });
  });
  afterAll(async () => env?.stop());

  test('a run streams its events once each, its text as written before the event that ends the call, and its result', async () => {
    const run = await env.client.start('stream-writer', { prompt: 'go' });
    const { items } = await readAll(run);
    const events = eventsOf(items, run.workflowId);
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
    expect(textOf(items, run.workflowId, 2)).toBe(ANSWER);
    const lastDelta = items.map((item) => item.type).lastIndexOf('text_delta');
    const finished = items.findIndex((item) => item.type === 'event' && item.event.type === 'model_call_finished' && item.event.iteration === 2);
    const started = items.findIndex((item) => item.type === 'event' && item.event.type === 'model_call_started' && item.event.iteration === 2);
    expect(started).toBeLessThan(items.findIndex((item) => item.type === 'text_delta'));
    expect(lastDelta).toBeLessThan(finished);
    const toolDeltas = items.filter((item) => item.type === 'tool_call_delta');
    expect(toolDeltas.map((item) => (item.type === 'tool_call_delta' ? item.arguments : '')).join('')).toBe('{"text":"first"}');
    const last = items.at(-1)!;
    expect(last.type === 'event' && last.event.type === 'run_finished' && last.result?.output).toBe(ANSWER);
    // Nothing of the stream is in the history: it is as long as an unfollowed run's of the same script.
    const unfollowed = await env.client.start('stream-writer', { prompt: 'go' });
    await unfollowed.result();
    expect((await run.handle.fetchHistory()).events?.length).toBe((await unfollowed.handle.fetchHistory()).events?.length);
  }, 60_000);

  test("an ended run's stream has every event when the server once gave up on a query before a worker took it", async () => {
    const run = await env.client.start('stream-writer', { prompt: 'go' });
    const unbusy = eventsOf((await readAll(run)).items, run.workflowId);
    // The server's answer on a busy fleet, for the first events query of the ended run.
    let refused = 0;
    const busy = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      interceptors: {
        workflow: [
          {
            query: async (input, next) => {
              if (input.queryType !== 'events' || refused++ > 0) return next(input);
              throw noWorkerTookIt();
            },
          },
        ],
      },
    });
    try {
      const { items } = await readAll(busy.get(run.workflowId));
      expect(refused).toBeGreaterThan(1);
      expect(eventsOf(items, run.workflowId)).toEqual(unbusy);
      expect(unbusy.at(-1)!.type).toBe('run_finished');
    } finally {
      await busy.close();
    }
  }, 60_000);

  test('reconnecting every 4 items across continue-as-new loses and repeats nothing', async () => {
    const run = await env.client.start('stream-long', { prompt: 'go', continueAsNewAfterEvents: 60 });
    const { items, reconnects } = await readAll(run, 4);
    expect(reconnects).toBeGreaterThan(20);
    const events = eventsOf(items, run.workflowId);
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
    for (let iteration = 1; iteration <= ECHOES; iteration++) expect(textOf(items, run.workflowId, iteration)).toBe(`step ${iteration}. `);
    expect(textOf(items, run.workflowId, ECHOES + 1)).toBe(ANSWER);
    const runs: string[] = [];
    for await (const execution of env.client.client.workflow.list({ query: `WorkflowId = '${run.workflowId}'` })) runs.push(execution.status.name);
    expect(runs).toContain('CONTINUED_AS_NEW');
    expect(items.at(-1)).toMatchObject({ type: 'event', event: { type: 'run_finished', status: 'completed' } });
  }, 120_000);

  test("a sub-agent's stream is nested before its end in the parent, also when reconnecting every 3 items", async () => {
    for (const breakEvery of [undefined, 3]) {
      const run = await env.client.start('stream-boss', { prompt: 'go' });
      const { items } = await readAll(run, breakEvery);
      const started = eventsOf(items, run.workflowId).find((event) => event.type === 'subagent_started');
      const childId = started?.type === 'subagent_started' ? started.workflowId : '';
      expect(childId).toMatch(new RegExp(`^${run.workflowId}/`));
      const childEvents = eventsOf(items, childId);
      expect(childEvents.map((event) => event.seq)).toEqual(childEvents.map((_event, index) => index + 1));
      expect(textOf(items, childId, 1)).toBe(CHILD_ANSWER);
      expect(items.filter((item) => item.workflowId === childId).every((item) => item.depth === 1)).toBe(true);
      const childEnd = items.findIndex((item) => item.workflowId === childId && item.type === 'event' && item.event.type === 'run_finished');
      const parentSaw = items.findIndex((item) => item.type === 'event' && item.event.type === 'subagent_finished');
      expect(childEnd).toBeGreaterThan(-1);
      expect(childEnd).toBeLessThan(parentSaw);
      expect(textOf(items, run.workflowId, 2)).toBe(`Done: ${CHILD_ANSWER}`);
    }
  }, 120_000);

  test('a call that waits for a person comes with its tool, arguments, schema and route, and is answered from the item', async () => {
    const run = await env.client.start('stream-shop', { prompt: 'refund A-1' });
    const items: StreamItem[] = [];
    for await (const item of run.stream()) {
      items.push(item);
      if (item.type === 'event' && item.waiting) {
        expect(item.waiting).toMatchObject({ kind: 'approval', tool: 'refund', input: { order_id: 'A-1', amount: 30 }, workflowId: run.workflowId });
        expect(item.waiting.schema).toMatchObject({ type: 'object', properties: { order_id: { type: 'string' } } });
        await env.client.get(item.waiting.workflowId).approve(item.waiting.callId, { answeredBy: 'stream-test' });
      }
    }
    expect(items.some((item) => item.type === 'event' && item.event.type === 'permission_decided' && item.event.answeredBy === 'stream-test')).toBe(true);
    expect(items.at(-1)).toMatchObject({ type: 'event', event: { type: 'run_finished', status: 'completed', output: 'Refunded.' } });
  }, 60_000);

  test('a cursor of another run, or none, is refused at once', async () => {
    const run = await env.client.start('stream-writer', { prompt: 'go' });
    const other = await env.client.start('stream-writer', { prompt: 'go' });
    let cursor = '';
    for await (const item of other.stream()) {
      cursor = item.cursor;
      break;
    }
    expect(() => run.stream({ from: cursor })).toThrow(InvalidCursorError);
    expect(() => run.stream({ from: 'not-a-cursor' })).toThrow(InvalidCursorError);
    await Promise.all([run.result(), other.result()]);
  }, 60_000);

  test('durable-agent stream prints the items as JSON lines and goes on after --from', async () => {
    const run = await env.client.start('stream-writer', { prompt: 'go' });
    const connection = ['--address', testAddress(), '--namespace', testNamespace(), '--task-queue', env.taskQueue];
    const capture = () => {
      const lines: string[] = [];
      return { lines, output: { out: (line: string) => lines.push(line), err: (line: string) => lines.push(`ERR ${line}`) } };
    };
    const whole = capture();
    expect(await runCli(['stream', run.workflowId, ...connection], whole.output)).toBe(0);
    const items = whole.lines.map((line) => JSON.parse(line) as StreamItem);
    expect(textOf(items, run.workflowId, 2)).toBe(ANSWER);
    const rest = capture();
    expect(await runCli(['stream', run.workflowId, '--from', items[3]!.cursor, ...connection], rest.output)).toBe(0);
    const after = rest.lines.map((line) => JSON.parse(line) as StreamItem);
    expect(eventsOf(after, run.workflowId)).toEqual(eventsOf(items.slice(4), run.workflowId));
    const refused = capture();
    expect(await runCli(['stream', run.workflowId, '--from', 'nonsense', ...connection], refused.output)).toBe(2);
    expect(refused.lines.join('\n')).toContain('is not a stream cursor');
  }, 60_000);
});
