import { ecommerceAgent } from '../../src/demo/ecommerce-agent';
import type { AgentEvent } from '../../src/common/events';
import type { ToolMessage } from '../../src/common/messages';
import { describeWithRealModel } from './real-model-env';
import {
  forSmallModel,
  describeFigures,
  drive,
  expectRuntimeHeld,
  orderReader,
  orderRequest,
  researchLead,
  returnsDesk,
  startRealModelEnv,
  tally,
  type Outcome,
  type RealModelEnv,
} from './real-model-kit';

const ofType = <T extends AgentEvent['type']>(outcome: Outcome, type: T) => outcome.events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describeWithRealModel('the demo agents on a real open model, end to end on a real dev server', () => {
  let env: RealModelEnv;
  const shop = forSmallModel(ecommerceAgent);
  const streaming = { ...shop, name: 'ecommerce-cs-streaming', model: { ...shop.model, stream: true } };
  beforeAll(async () => {
    env = await startRealModelEnv([shop, streaming, researchLead, forSmallModel(returnsDesk), orderReader]);
  });
  afterAll(async () => {
    console.log(`real model figures: ${describeFigures()}`);
    await env?.stop();
  });

  const run = async (agent: string, prompt: string, answers: Parameters<typeof drive>[2] = {}) => {
    const outcome = await drive(env.client, await env.client.start(agent, { prompt, userId: 'u-1001' }), answers);
    tally(outcome);
    expectRuntimeHeld(outcome);
    return outcome;
  };

  test('a tool call runs and the model answers from its result', async () => {
    const outcome = await run('ecommerce-cs', 'Where is my order ORD-2024-001? Look it up with query_order.');
    expect(ofType(outcome, 'model_call_finished').length).toBeGreaterThan(0);
    expect(outcome.result?.messages.some((message) => message.role === 'tool' && message.state === 'success')).toBe(true);
  });

  test('a refund waits for approval; approved, it runs once', async () => {
    const outcome = await run('ecommerce-cs', 'Refund order ORD-2024-002: the phone case arrived cracked. Call request_refund with the order_id and the reason.', { approve: true });
    const asked = ofType(outcome, 'permission_requested').filter((event) => event.tool === 'request_refund');
    expect(asked.length).toBeGreaterThan(0);
    expect(ofType(outcome, 'permission_decided').filter((event) => event.by === 'user' && event.behavior === 'allow').length).toBe(asked.length);
    expect(outcome.result?.messages.filter((message) => message.role === 'tool' && message.name === 'request_refund' && message.state === 'success').length).toBe(asked.length);
  });

  test('a refund denied: the model reads the reason, nothing runs', async () => {
    const outcome = await run('ecommerce-cs', 'Refund order ORD-2024-001, I changed my mind. Call request_refund with the order_id and the reason.', { approve: false });
    expect(ofType(outcome, 'permission_decided').some((event) => event.by === 'user' && event.behavior === 'deny')).toBe(true);
    const refunds = (outcome.result?.messages ?? []).filter((message): message is ToolMessage => message.role === 'tool' && message.name === 'request_refund');
    expect(refunds.length).toBeGreaterThan(0);
    // Denied, refused as malformed, or cancelled at the iteration limit: never run.
    expect(refunds.filter((message) => message.state === 'success')).toEqual([]);
    expect(refunds.some((message) => message.state === 'denied')).toBe(true);
  });

  test("an external tool's result is submitted from outside and the model answers from it", async () => {
    const outcome = await run('returns-desk', 'Book a courier to collect the return of order ORD-2024-002.', { submit: 'The courier collects the parcel on 3 December between 10:00 and 12:00.' });
    expect(ofType(outcome, 'external_submitted').length).toBeGreaterThan(0);
    expect(outcome.result?.messages.some((message) => message.role === 'tool' && message.content.includes('3 December'))).toBe(true);
  });

  test('a streaming run: the calls are read from the streamed text', async () => {
    const outcome = await run('ecommerce-cs-streaming', 'Where is my order ORD-2024-001? Look it up with query_order.');
    expect(outcome.result?.messages.some((message) => message.role === 'tool')).toBe(true);
  });

  test('a conversation of three turns', async () => {
    const chat = env.client.conversation('ecommerce-cs', { sessionId: `real-${Date.now()}` });
    const sent = ['Hello!', 'Where is my order ORD-2024-001?', 'Thank you, that is all.'];
    const turns = [];
    for (const text of sent) turns.push(await chat.send(text));
    expect(turns.map((turn) => turn.turn)).toEqual([1, 2, 3]);
    for (const turn of turns) expect(['completed', 'max_iterations', 'failed']).toContain(turn.status);
    const { messages } = await chat.messages();
    // Each message once, in order (a turn at its iteration limit adds the runtime's own request for a summary).
    expect(messages.filter((message) => message.role === 'user' && sent.includes(String(message.content))).map((message) => message.content)).toEqual(sent);
    expect(messages.filter((message) => message.role === 'tool').every((message) => messages.some((m) => m.role === 'assistant' && m.toolCalls?.some((call) => call.id === message.toolCallId)))).toBe(true);
    await chat.end();
  });

  test('a typed answer: the response format holds the model to the schema, and result() gives the data', async () => {
    const run = await env.client.start(orderReader, { prompt: 'Hello, order ORD-2024-002 arrived cracked and I want my money back.' });
    const outcome = await drive(env.client, run, {});
    tally(outcome);
    expectRuntimeHeld(outcome);
    expect(outcome.result?.status).toBe('completed');
    // Grammar-constrained by llama.cpp: the answer fits (refusals, if any, stayed within maxRetries).
    expect(orderRequest.parse(outcome.result?.data)).toEqual(outcome.result?.data);
    expect(JSON.parse(outcome.result!.output)).toEqual(outcome.result?.data);
    const formats = ofType(outcome, 'answer_refused');
    expect(formats.length).toBeLessThanOrEqual(2);
  });

  test('a sub-agent: the lead hands a topic to a researcher (a child run) and answers from it', async () => {
    const outcome = await run('research-lead', 'Call the researcher tool with the task "Read the notes on child workflows", then answer in one sentence from its result.', { approve: true });
    const started = ofType(outcome, 'subagent_started');
    expect(started.length).toBeGreaterThan(0);
    // Each child ran to its own end, and its answer came back to the lead as the call's result.
    const children = outcome.result?.messages.filter((message): message is ToolMessage => message.role === 'tool' && message.name === 'researcher') ?? [];
    expect(children.length).toBeGreaterThan(0);
    for (const event of started) expect(['COMPLETED', 'FAILED']).toContain((await env.client.get(event.workflowId).execution()).status);
  });
});
