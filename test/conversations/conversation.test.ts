import { ConversationEndedError } from '../../src/client/conversation';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured, splitCommandLine } from '../helpers/cli-capture';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { conversationScript } from './conversation-script';

const support = defineAgent({ name: 'support-chat', instructions: 'Help with orders.', tools: [lookupTool, refundTool], permissions: { ask: ['refund'] } });

const session = () => `s-${Math.random().toString(36).slice(2, 10)}`;

describe('conversations', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [support], script: conversationScript });
  });
  afterAll(async () => env?.stop());

  test('three turns: the third answers from a tool result of the first, which the model request carries', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session() });
    const first = await conversation.send('Where is ORD-7?');
    expect(first).toMatchObject({ turn: 1, status: 'completed', output: 'ORD-7: value of ORD-7', iterations: 2 });
    expect((await conversation.send('Thanks')).output).toBe('echo: Thanks');
    const before = env.model.requests.length;
    const third = await conversation.send('What did the lookup say?');
    expect(third).toMatchObject({ turn: 3, output: 'Earlier the lookup said: value of ORD-7' });
    const request = env.model.requests[before]!.body;
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);
    const state = await conversation.run.state();
    expect(state).toMatchObject({ status: 'idle', messageCount: 9 });
    const events = await conversation.run.eventsAfter(0);
    expect(events.filter((e) => e.type === 'turn_finished').map((e) => (e as { turn: number }).turn)).toEqual([1, 2, 3]);
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 3 });
    await maybeRecordHistory(conversation.run, 'conversation-three-turns');
  });

  test('an approval in turn 2 is answered from the CLI, by the conversation id and the call id pending prints', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session() });
    await conversation.send('Where is ORD-5?');
    const sent = await conversation.send('Refund ORD-5', { wait: false });
    await waitForPending(conversation.run, 1);
    const common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
    const pending = await runCliCaptured(['pending', conversation.workflowId, ...common]);
    const approve = pending.out.map((line) => /\b(approve \S+ \S+)\s*$/.exec(line)?.[1]).find(Boolean)!;
    const words = splitCommandLine(approve);
    expect(words.slice(0, 2)).toEqual(['approve', conversation.workflowId]);
    expect((await runCliCaptured([...words, ...common])).code).toBe(0);
    expect(await sent.result()).toMatchObject({ turn: 2, output: 'Refund: refunded 5 on ORD-5' });
    await conversation.end();
  });

  test('an approval in a turn is answered through the conversation run handle', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session() });
    await conversation.send('Where is ORD-9?');
    const sent = await conversation.send('Refund ORD-9', { wait: false });
    const { pending } = await waitForPending(conversation.run, 1);
    expect(pending[0]).toMatchObject({ tool: 'refund', input: { order_id: 'ORD-9', amount: 5 } });
    expect((await conversation.run.state()).status).toBe('awaiting_approval');
    await conversation.run.approve(pending[0]!.callId);
    expect(await sent.result()).toMatchObject({ turn: 2, status: 'completed', output: 'Refund: refunded 5 on ORD-9' });
    await conversation.end();
  });

  test('messages sent while a turn runs are answered in order', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session() });
    const sent = [];
    for (const text of ['one', 'two', 'three', 'four']) sent.push(await conversation.send(text, { wait: false }));
    const results = await Promise.all(sent.map((message) => message.result()));
    expect(results.map((r) => [r.turn, r.output])).toEqual([
      [1, 'echo: one'],
      [2, 'echo: two'],
      [3, 'echo: three'],
      [4, 'echo: four'],
    ]);
    await conversation.end();
  });

  test('after end(), a message is refused with ConversationEndedError and nothing restarts it', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session() });
    await conversation.send('hello');
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 1 });
    await expect(conversation.send('anyone?')).rejects.toBeInstanceOf(ConversationEndedError);
    await expect(conversation.send('anyone?')).rejects.toThrow(`The conversation ${conversation.workflowId} has ended and takes no more messages`);
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 1 });
  });

  test('two conversations of one agent share nothing', async () => {
    const a = env.client.conversation('support-chat', { sessionId: session() });
    const b = env.client.conversation('support-chat', { sessionId: session() });
    await a.send('Where is ORD-1?');
    await b.send('Where is ORD-2?');
    expect((await a.send('What did the lookup say?')).output).toBe('Earlier the lookup said: value of ORD-1');
    expect((await b.send('What did the lookup say?')).output).toBe('Earlier the lookup said: value of ORD-2');
    expect(a.workflowId).not.toBe(b.workflowId);
    await Promise.all([a.end(), b.end()]);
  });

  test('no message within idleTimeout ends it; later messages are refused', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session(), idleTimeout: '1s' });
    await conversation.send('hello');
    expect(await conversation.run.handle.result()).toMatchObject({ reason: 'idle', turns: 1 });
    await expect(conversation.send('still there?')).rejects.toBeInstanceOf(ConversationEndedError);
  });

  test('a conversation continues as new between turns and remembers what came before', async () => {
    const conversation = env.client.conversation('support-chat', { sessionId: session(), continueAsNewAfterEvents: 20 });
    const firstRunId = (await conversation.send('Where is ORD-3?').then(() => conversation.run.handle.describe())).runId;
    for (const text of ['a', 'b', 'c', 'd']) expect((await conversation.send(text)).output).toBe(`echo: ${text}`);
    const later = await waitFor(async () => {
      const { runId } = await conversation.run.handle.describe();
      return runId !== firstRunId ? runId : undefined;
    }, 'a continue-as-new');
    expect(later).not.toBe(firstRunId);
    expect(await conversation.send('What did the lookup say?')).toMatchObject({ turn: 6, output: 'Earlier the lookup said: value of ORD-3' });
    expect(await conversation.end()).toMatchObject({ reason: 'ended', turns: 6 });
  });

  test('bad options and messages are refused before anything is sent', async () => {
    expect(() => env.client.conversation('support-chat', { sessionId: '' })).toThrow('A conversation needs a sessionId');
    expect(() => env.client.conversation('support-chat', { sessionId: 'x', idleTimeout: 'soon' })).toThrow(`idleTimeout "soon" is not a duration`);
    await expect(env.client.conversation('support-chat', { sessionId: session() }).send('')).rejects.toThrow('sendMessage: text: text must not be empty; it was not sent');
  });
});
