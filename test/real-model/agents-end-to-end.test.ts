import { ecommerceAgent } from '../../src/demo/ecommerce-agent';
import { researchLeadAgent } from '../../src/demo/research-agents';
import type { AgentEvent } from '../../src/common/events';
import type { ToolMessage } from '../../src/common/messages';
import { describeWithRealModel } from './real-model-env';
import { forSmallModel, describeFigures, drive, expectRuntimeHeld, returnsDesk, startRealModelEnv, tally, type Outcome, type RealModelEnv } from './real-model-kit';

const ofType = <T extends AgentEvent['type']>(outcome: Outcome, type: T) => outcome.events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describeWithRealModel('the demo agents on a real open model, end to end on a real dev server', () => {
  let env: RealModelEnv;
  const shop = forSmallModel(ecommerceAgent);
  const streaming = { ...shop, name: 'ecommerce-cs-streaming', model: { ...shop.model, stream: true } };
  beforeAll(async () => {
    env = await startRealModelEnv([shop, streaming, forSmallModel(researchLeadAgent), forSmallModel(returnsDesk)]);
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
    expect(refunds.every((message) => message.state === 'denied' || message.state === 'error')).toBe(true);
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
    const turns = [];
    for (const text of ['Hello!', 'Where is my order ORD-2024-001?', 'Thank you, that is all.']) turns.push(await chat.send(text));
    expect(turns.map((turn) => ('turn' in turn ? turn.turn : 0))).toEqual([1, 2, 3]);
    for (const turn of turns) expect(['completed', 'max_iterations', 'failed']).toContain((turn as { status: string }).status);
    const { messages } = await chat.messages();
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Hello!', 'Where is my order ORD-2024-001?', 'Thank you, that is all.']);
    await chat.end();
  });

  test('a sub-agent: the lead hands a topic to a researcher (a child run) and answers from it', async () => {
    const outcome = await run('research', 'Research one topic, "child workflows", with one researcher, then answer in one sentence.', { approve: true });
    expect(ofType(outcome, 'subagent_started').length).toBeGreaterThan(0);
  });
});
