import type { AgentRun, RunUpdate } from '../../src/client/agent-run';
import { runCli } from '../../src/cli/run-cli';
import type { AgentEvent } from '../../src/common/events';
import type { ModelScript } from '../../src/testing/scripted-model-types';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent } from '../../src/toolkit/define-agent';
import { echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { testAddress, testNamespace } from '../helpers/temporal-env';

const instructions = 'You answer at length.';
const streamingAgent = defineAgent({ name: 'slow-writer', instructions, tools: [echoTool], model: { stream: true } });
const plainAgent = defineAgent({ name: 'plain-writer', instructions, tools: [echoTool] });
const helper = defineAgent({ name: 'updates-helper', instructions: 'Answer.', model: { name: 'helper', stream: true }, tools: [echoTool] });
const boss = defineAgent({ name: 'updates-boss', instructions: 'Delegate.', model: { name: 'boss', stream: true }, tools: [agentTool(helper, { name: 'helper' })] });

// 4 characters per chunk, one chunk per 100 ms: about 3 s of streaming.
const ANSWER =
  'Durable agents keep their conversation in the workflow, so a crashed worker loses nothing; ' +
  'the stream is only shown, never recorded.';
const CHILD_ANSWER = 'The parcel is at the depot.';

const byModel: Record<string, ModelScript> = {
  helper: () => CHILD_ANSWER,
  boss: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'helper', arguments: { task: 'find the parcel' } }] } : `Done: ${info.toolResults[0]?.content}`),
};

type PartialTextUpdate = Extract<RunUpdate, { type: 'partial_text' }>;

async function collect(updates: AsyncIterable<RunUpdate>): Promise<RunUpdate[]> {
  const seen: RunUpdate[] = [];
  for await (const update of updates) seen.push(update);
  return seen;
}

const isEvent = (update: RunUpdate): update is AgentEvent => update.type !== 'partial_text' && update.type !== 'subagent_event';

function cliOutput() {
  const lines: string[] = [];
  return { lines, output: { out: (line: string) => lines.push(line), err: (line: string) => lines.push(`ERR ${line}`) } };
}

describe('following a run: updates() and events() read run.stream()', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [streamingAgent, plainAgent, helper, boss],
      script: [ANSWER],
      byModel,
      modelServer: { chunkDelayMs: 100 },
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test("updates() gives the text of the call in flight as the stream reads it, piece by piece, between the call's start and end, without adding history events", async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const updates = await collect(run.updates());

    const partial = updates.filter((update): update is PartialTextUpdate => update.type === 'partial_text');
    // The stream's deltas, each given as the whole text so far: one per chunk or so, not one per heartbeat (at most one a second).
    expect(partial.length).toBeGreaterThan(10);
    for (const [index, update] of partial.entries()) {
      expect(update).toMatchObject({ type: 'partial_text', model: 'scripted-model', iteration: 1, attempt: 1 });
      expect(ANSWER.startsWith(update.text)).toBe(true);
      if (index > 0) expect(update.text.length).toBeGreaterThan(partial[index - 1]!.text.length);
    }
    expect(partial.at(-1)!.text).toBe(ANSWER);

    const types = updates.map((update) => update.type);
    const started = types.indexOf('model_call_started');
    const finished = types.indexOf('model_call_finished');
    expect(started).toBeLessThan(updates.indexOf(partial[0]!));
    expect(finished).toBeGreaterThan(updates.indexOf(partial.at(-1)!));
    expect(updates.at(-1)).toMatchObject({ type: 'run_finished', status: 'completed', output: ANSWER });

    // events() and partialText: false: the same events, in order, without the text.
    const events = updates.filter(isEvent);
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
    expect((await collect(run.updates({ partialText: false }))).map((update) => update.type)).toEqual(events.map((event) => event.type));
    const replayed: AgentEvent[] = [];
    for await (const event of run.events({ afterSeq: 2 })) replayed.push(event);
    expect(replayed).toEqual(events.slice(2));

    const plain = await env.client.start('plain-writer', { prompt: 'explain' });
    await plain.result();
    const streamedHistory = await run.handle.fetchHistory();
    const plainHistory = await plain.handle.fetchHistory();
    expect(streamedHistory.events?.length).toBe(plainHistory.events?.length);
  });

  test("updates({ subAgents: true }) gives a sub-agent's events before its parent's subagent_finished, and only the run's own text", async () => {
    const run = await env.client.start('updates-boss', { prompt: 'go' });
    const updates = await collect(run.updates({ subAgents: true }));

    const started = updates.find((update): update is Extract<AgentEvent, { type: 'subagent_started' }> => update.type === 'subagent_started');
    expect(started).toBeDefined();
    const child = updates.filter((update) => update.type === 'subagent_event');
    expect(child.length).toBeGreaterThan(0);
    expect(child.every((update) => update.type === 'subagent_event' && update.workflowId === started!.workflowId && update.depth === 1)).toBe(true);
    const childEvents = child.map((update) => (update.type === 'subagent_event' ? update.event : undefined));
    expect(childEvents.at(-1)).toMatchObject({ type: 'run_finished', status: 'completed', output: CHILD_ANSWER });
    const finished = updates.findIndex((update) => update.type === 'subagent_finished');
    expect(updates.indexOf(child.at(-1)!)).toBeLessThan(finished);

    // The text given is the boss's own answer, never the helper's.
    const partial = updates.filter((update): update is PartialTextUpdate => update.type === 'partial_text');
    expect(partial.at(-1)).toMatchObject({ model: 'boss', iteration: 2, text: expect.stringMatching(/^Done: .*depot/) });
    expect(partial.every((update) => !update.text.startsWith(CHILD_ANSWER.slice(0, 8)))).toBe(true);
    expect(updates.at(-1)).toMatchObject({ type: 'run_finished', status: 'completed' });

    // Without subAgents, only the run's own events.
    const own = await collect(run.updates({ partialText: false }));
    expect(own.map((update) => update.type)).toEqual(updates.filter(isEvent).map((event) => event.type));
  });

  test('watch prints the text in flight line by line, between the start and the end of the call', async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const { lines, output } = cliOutput();
    const code = await runCli(['watch', run.workflowId, '--address', testAddress(), '--namespace', testNamespace()], output);

    expect(code).toBe(0);
    const written = lines.filter((line) => line.startsWith('         │ '));
    expect(written.map((line) => line.slice('         │ '.length)).join('\n')).toBe(ANSWER);
    const started = lines.findIndex((line) => line.includes('▶ model scripted-model'));
    const finished = lines.findIndex((line) => line.includes('◀ model scripted-model'));
    expect(started).toBeLessThan(lines.indexOf(written[0]!));
    expect(finished).toBeGreaterThan(lines.indexOf(written.at(-1)!));
    expect(lines.at(-1)).toContain('■ completed');
  });

  test('watch --json prints events plus text_delta items that carry no seq; --events-only leaves them out', async () => {
    const run = await env.client.start('slow-writer', { prompt: 'explain' });
    const { lines, output } = cliOutput();
    const code = await runCli(
      ['watch', run.workflowId, '--json', '--address', testAddress(), '--namespace', testNamespace()],
      output,
    );

    expect(code).toBe(0);
    const parsed = lines.map((line) => JSON.parse(line) as { type: string; seq?: number; text?: string; iteration?: number });
    const deltas = parsed.filter((item) => item.type === 'text_delta');
    const events = parsed.filter((item) => item.type !== 'text_delta');
    expect(deltas.map((d) => d.text).join('')).toBe(ANSWER);
    expect(deltas.every((d) => d.seq === undefined && d.iteration === 1)).toBe(true);
    expect(events.every((e) => typeof e.seq === 'number')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'completed' });

    const quiet = cliOutput();
    expect(await runCli(['watch', run.workflowId, '--json', '--events-only', '--address', testAddress(), '--namespace', testNamespace()], quiet.output)).toBe(0);
    expect(quiet.lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(events.map((e) => e.type));
  });
});
