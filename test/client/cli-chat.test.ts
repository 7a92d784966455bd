import { defineAgent } from '../../src/toolkit/define-agent';
import { conversationScript } from '../conversations/conversation-script';
import { lookupTool, refundTool, shipTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { waitFor } from '../helpers/wait-for';

const support = defineAgent({ name: 'chat-shop', instructions: 'Help with orders.', tools: [lookupTool, refundTool, shipTool], permissions: { ask: ['refund'] } });

const session = () => `cli-${Math.random().toString(36).slice(2, 10)}`;

describe('durable-agent chat', () => {
  let env: AgentTestEnv;
  let common: string[];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [support], script: conversationScript });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => env?.stop());

  test('messages, steps, an approval with edited arguments answered inline, a follow-up that remembers, /end', async () => {
    const id = session();
    const chat = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', id, ...common], undefined, [
      'Where is ORD-7?',
      'Refund ORD-7',
      'e',
      '{"order_id":"ORD-7","amount":2}',
      'What did the lookup say?',
      '/end',
    ]);
    expect(chat.err).toEqual([]);
    expect(chat.code).toBe(0);
    const out = chat.out.join('\n');
    expect(out).toContain(`Conversation conversation-chat-shop-${id} with chat-shop (session ${id})`);
    expect(out).toMatch(/▶ tool lookup \{"key":"ORD-7"\}/);
    expect(out).toContain('chat-shop> ORD-7: value of ORD-7');
    expect(out).toMatch(/\? refund \{"order_id":"ORD-7","amount":5\} needs approval/);
    expect(out).toContain('chat-shop> Refund: refunded 2 on ORD-7');
    expect(out).toContain('chat-shop> Earlier the lookup said: value of ORD-7');
    expect(out).toContain('Ended after 3 message(s).');
  });

  test('--as names who answered inline, in the decision and the event', async () => {
    const id = session();
    const chat = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', id, '--as', 'carol', ...common], undefined, ['Refund ORD-9', 'y', 'Ship to Lyon', 'tracking LY1', '/end']);
    expect(chat.code).toBe(0);
    const events = await env.client.get(`conversation-chat-shop-${id}`).eventsAfter(0);
    expect(events.filter((e) => e.type === 'permission_decided')).toEqual([expect.objectContaining({ tool: 'refund', by: 'user', answeredBy: 'carol' })]);
    expect(events.filter((e) => e.type === 'external_submitted')).toEqual([expect.objectContaining({ tool: 'ship_parcel', answeredBy: 'carol' })]);
  });

  test('a tool that runs outside the worker asks for its result inline', async () => {
    const chat = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', session(), ...common], undefined, ['Ship to Berlin', 'tracking SF42', '/end']);
    expect(chat.code).toBe(0);
    const out = chat.out.join('\n');
    expect(out).toMatch(/⧗ ship_parcel \{"address":"Berlin"\} runs outside the worker/);
    expect(out).toContain('chat-shop> Shipped: tracking SF42');
  });

  test('a denial with its reason; /quit leaves the conversation, and chat with the same --session goes on without reprinting', async () => {
    const id = session();
    const first = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', id, ...common], undefined, ['Refund ORD-8', 'n', 'not today', '/quit']);
    expect(first.code).toBe(0);
    expect(first.out.join('\n')).toMatch(/chat-shop> Refund: .*not today/);
    expect(first.out.join('\n')).toContain(`chat --agent chat-shop --session ${id} goes on with it`);
    const again = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', id, ...common], undefined, ['hello again', '/end']);
    expect(again.code).toBe(0);
    const out = again.out.join('\n');
    expect(out).toContain('» message 2: hello again');
    expect(out).not.toContain('» message 1');
    expect(out).toContain('chat-shop> echo: hello again');
    expect(out).toContain('Ended after 2 message(s).');
  });

  test('input that ends while a call waits leaves it waiting (exit 3) with the command that answers it', async () => {
    const id = session();
    const chat = await runCliCaptured(['chat', '--agent', 'chat-shop', '--session', id, ...common], undefined, ['Refund ORD-9']);
    expect(chat.code).toBe(3);
    expect(chat.out.join('\n')).toContain(`The input ended while refund waits`);
    const run = env.client.get(`conversation-chat-shop-${id}`);
    const { pending } = await run.state();
    expect(pending).toHaveLength(1);
    await run.approve(pending[0]!.callId);
    const conversation = env.client.conversation('chat-shop', { sessionId: id });
    await conversation.end();
  });

  test('list shows a conversation with its session and messages answered; watch prints its turns to the end', async () => {
    const id = session();
    // Continues as new between turns: watch follows it across the runs.
    const conversation = env.client.conversation('chat-shop', { sessionId: id, continueAsNewAfterEvents: 15 });
    const firstRun = await conversation.send('one').then(() => conversation.run.handle.describe());
    await conversation.send('two');
    await conversation.send('three');
    const listed = await waitFor(async () => {
      const list = await runCliCaptured(['list', '--agent', 'chat-shop', ...common]);
      const line = list.out.find((l) => l.startsWith(conversation.workflowId));
      return line?.includes('3 message(s)') ? line : undefined;
    }, 'the conversation listed with its messages');
    expect(listed).toContain(`idle`);
    expect(listed).toContain(`${id} (3 message(s))`);
    expect((await conversation.run.handle.describe()).runId).not.toBe(firstRun.runId);
    await conversation.end();
    const watched = await runCliCaptured(['watch', conversation.workflowId, ...common]);
    expect(watched.code).toBe(0);
    const out = watched.out.join('\n');
    expect(out).toContain('» message 1: one');
    expect(out).toContain('« answer 2 (completed, 1 iteration(s)): echo: two');
    expect(out).toContain('» message 3: three');
    expect(out).toContain('■ conversation ended after 3 message(s)');
  });

  test('without --agent: a usage error', async () => {
    const chat = await runCliCaptured(['chat', ...common]);
    expect(chat.code).toBe(2);
    expect(chat.err.join('\n')).toContain('missing --agent NAME');
  });
});
