import { temporal } from '@temporalio/proto';
import type { ScriptedTurn } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { addTool, echoTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const instructions = 'You add numbers with the add tool.';
const plainAgent = defineAgent({ name: 'plain', instructions, tools: [addTool, echoTool] });
const streamingAgent = defineAgent({ name: 'streaming', instructions, tools: [addTool, echoTool], model: { stream: true } });
const impatientAgent = defineAgent({
  name: 'impatient',
  instructions,
  tools: [addTool, echoTool],
  model: { stream: true, heartbeatTimeout: '2s' },
});

const conversation: ScriptedTurn[] = [
  {
    text: 'Let me add both pairs.',
    toolCalls: [
      { name: 'add', arguments: { a: 1, b: 2 } },
      { name: 'echo', arguments: { text: 'unicode ü, "quotes" and a longer text that spans many chunks' } },
    ],
    usage: { promptTokens: 50, completionTokens: 20 },
  },
  { toolCalls: [{ name: 'add', arguments: { a: 3, b: 4 } }] },
  'The sums are 3 and 7; the echo said what you asked.',
];

describe('streaming model calls', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [plainAgent, streamingAgent, impatientAgent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('streaming and non-streaming runs of the same script give the same messages and usage', async () => {
    const before = env.model.requests.length;
    env.model.setScript(conversation);
    const plain = await (await env.client.start('plain', { prompt: 'add 1+2 and 3+4' })).result();
    env.model.setScript(conversation);
    const streamed = await (await env.client.start('streaming', { prompt: 'add 1+2 and 3+4' })).result();

    expect(env.model.requests.slice(before).map((r) => r.stream)).toEqual([false, false, false, true, true, true]);
    expect(streamed.status).toBe('completed');
    expect(streamed.messages).toEqual(plain.messages);
    expect(streamed.usage).toEqual(plain.usage);
    expect(streamed.output).toBe('The sums are 3 and 7; the echo said what you asked.');
  });

  test('a stream cut in the middle is retried and the run completes with the whole answer', async () => {
    const answer = 'A long answer that arrives in many small chunks, so the cut lands in its middle.';
    const before = env.model.requests.length;
    env.model.setScript([{ text: answer, faults: [{ dropConnection: true, afterChunks: 5 }] }]);
    const result = await (await env.client.start('streaming', { prompt: 'talk' })).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe(answer);
    expect(result.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
    const attempts = env.model.requests.slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts.every((r) => r.stream)).toBe(true);
  });

  test("a stalled stream is the model's own failure after its heartbeat timeout, and retried", async () => {
    const stallMs = 30_000;
    const before = env.model.requests.length;
    env.model.setScript([{ text: 'Answer after the stall.', faults: [{ stallMs }] }]);
    const started = Date.now();
    const run = await env.client.start('impatient', { prompt: 'talk' });
    const result = await run.result();
    const elapsed = Date.now() - started;

    expect(result.output).toBe('Answer after the stall.');
    expect(env.model.requests.slice(before)).toHaveLength(2);
    // Without the 2 s heartbeat timeout the first attempt would wait out the whole stall.
    expect(elapsed).toBeLessThan(stallMs / 2);
    // History keeps only the attempt that ended the activity; its last failure says why it was retried.
    const history = await run.handle.fetchHistory();
    const modelStarts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes] : []));
    const retried = modelStarts.find((started) => started.attempt === 2);
    expect(retried?.lastFailure?.applicationFailureInfo?.type).toBe('Model.Timeout');
    expect(retried?.lastFailure?.message).toBe('Model scripted-model sent nothing for 2s');
  });
});
