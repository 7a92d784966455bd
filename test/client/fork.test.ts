import { ForkRefusedError } from '../../src/client/fork/fork-point';
import type { AgentEvent } from '../../src/common/events';
import { NOT_RUN_BEFORE_FORK } from '../../src/common/fork';
import { defineAgent } from '../../src/toolkit/define-agent';
import { lookupTool, refundsIssued, refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor, waitForPending } from '../helpers/wait-for';

const shop = defineAgent({
  name: 'fork-shop',
  instructions: 'Refund when asked.',
  tools: [refundTool, lookupTool],
  permissions: { ask: ['refund'] },
});

const chat = defineAgent({ name: 'fork-chat', instructions: 'Answer briefly.', tools: [lookupTool] });

/** Calls refund on the user's order, then answers with the results it read (or the user's words). */
function shopScript() {
  return (_req: unknown, info: { turnIndex: number; lastUserText: string; toolResults: { content: string }[] }) => {
    if (info.toolResults.length > 0) return `Results: ${info.toolResults.map((r) => r.content).join(' | ')}`;
    const order = /refund (\w+)/.exec(info.lastUserText)?.[1];
    if (order && info.turnIndex === 0) return { toolCalls: [{ name: 'refund', arguments: { order_id: order, amount: 30 } }] };
    return `You said: ${info.lastUserText}`;
  };
}

const seqOf = (events: AgentEvent[], type: AgentEvent['type'], n = 1) => events.filter((event) => event.type === type)[n - 1]!.seq;

describe('forks of a run from any of its events', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [shop, chat], script: shopScript() });
  });
  afterAll(async () => env?.stop());
  beforeEach(() => {
    refundsIssued.length = 0;
  });

  async function approvedRun(order: string) {
    const run = await env.client.start('fork-shop', { prompt: `refund ${order}`, userId: 'u-7' });
    const state = await waitForPending(run, 1);
    await run.approve(state.pending[0]!.callId);
    const result = await run.result();
    expect(result.output).toBe(`Results: refunded 30 on ${order}`);
    return { run, result, events: await run.eventsAfter(0) };
  }

  test('after an approval: the refund is not run again, the messages are the parent\'s prefix, and the lineage is recorded', async () => {
    const { run, result, events } = await approvedRun('F1');
    expect(refundsIssued).toEqual([{ orderId: 'F1', amount: 30 }]);
    const at = seqOf(events, 'tool_call_finished');
    const fork = await run.fork({ at });
    const forked = await fork.result();
    expect(forked.status).toBe('completed');
    expect(forked.output).toBe('Results: refunded 30 on F1');
    expect(refundsIssued).toHaveLength(1);
    // system, prompt, the refund call, its result: then the fork's own answer.
    expect(forked.messages.slice(0, 4)).toEqual(result.messages.slice(0, 4));
    expect(forked.messages).toHaveLength(5);
    const forkEvents = await fork.eventsAfter(0);
    expect(forkEvents[0]).toMatchObject({ type: 'run_forked', of: run.workflowId, after: at, agent: 'fork-shop' });
    expect(forkEvents.some((event) => event.type === 'tool_call_started' || event.type === 'permission_requested')).toBe(false);
    // Spend as it stood: the parent's first model call, then the fork's own.
    const firstCall = events.find((event) => event.type === 'model_call_finished');
    expect(firstCall && firstCall.type === 'model_call_finished' && forked.usage.totalTokens).toBeGreaterThan(firstCall && firstCall.type === 'model_call_finished' ? firstCall.usage.totalTokens : 0);
    expect((await fork.state()).fork).toEqual({ workflowId: run.workflowId, at, agent: 'fork-shop' });
    const listed = await waitFor(async () => {
      const forks = await env.client.list({ query: `AgentForkOf = '${run.workflowId}'` });
      return forks.length === 1 ? forks : undefined;
    }, 'the fork in visibility');
    expect(listed[0]).toMatchObject({ workflowId: fork.workflowId, forkOf: run.workflowId, agent: 'fork-shop' });
    await maybeRecordHistory(fork, 'fork-after-approval');
  });

  test('at 0 with an edited message and another model: the prompt is replaced and the other model is called', async () => {
    const { run } = await approvedRun('F2');
    const before = env.model.requests.length;
    const fork = await run.fork({ at: 0, message: 'refund F3', model: 'other-model' });
    const state = await waitForPending(fork, 1);
    expect(state.pending[0]).toMatchObject({ tool: 'refund', input: { order_id: 'F3', amount: 30 } });
    await fork.deny(state.pending[0]!.callId, 'not this one');
    const forked = await fork.result();
    expect(forked.messages[1]).toEqual({ role: 'user', content: 'refund F3' });
    expect(forked.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(env.model.requests.slice(before).map((request) => request.model)).toEqual(['other-model', 'other-model']);
    expect(refundsIssued).toEqual([{ orderId: 'F2', amount: 30 }]);
    expect((await fork.eventsAfter(0))[0]).toMatchObject({ type: 'run_forked', model: 'other-model' });
  });

  test('while the parent waits on its approval: the waiting call is answered as not run, and instructions are replaced', async () => {
    const run = await env.client.start('fork-shop', { prompt: 'refund F4' });
    await waitForPending(run, 1);
    const events = await run.eventsAfter(0);
    const fork = await run.fork({ at: seqOf(events, 'permission_requested'), instructions: 'Never refund.' });
    const forked = await fork.result();
    expect(forked.messages[0]).toEqual({ role: 'system', content: 'Never refund.' });
    expect(forked.messages[3]).toMatchObject({ role: 'tool', content: NOT_RUN_BEFORE_FORK, state: 'cancelled' });
    expect(forked.output).toBe(`Results: ${NOT_RUN_BEFORE_FORK}`);
    expect(refundsIssued).toHaveLength(0);
    await run.cancel();
  });

  test('a conversation forks into a conversation after a turn, with the next message', async () => {
    const conversation = env.client.conversation('fork-chat', { sessionId: `fork-${Date.now()}` });
    expect((await conversation.send('first question')).output).toBe('You said: first question');
    expect((await conversation.send('second question')).output).toBe('You said: second question');
    const events = await conversation.run.eventsAfter(0);
    const fork = await conversation.run.fork({ at: seqOf(events, 'turn_finished', 1), message: 'another second question' });
    const answered = await waitFor(async () => {
      const found = (await fork.eventsAfter(0)).find((event) => event.type === 'turn_finished');
      return found;
    }, 'the fork answers its message');
    expect(answered).toMatchObject({ type: 'turn_finished', turn: 2, output: 'You said: another second question' });
    const { messages } = await fork.messages();
    expect(messages.map((m) => m.role === 'user' || m.role === 'assistant' ? m.content : m.role)).toEqual(['system', 'first question', 'You said: first question', 'another second question', 'You said: another second question']);
    await conversation.end();
    await fork.cancel();
  });

  test('a point the run does not have, or an empty edit, is refused before anything starts', async () => {
    const { run, events } = await approvedRun('F5');
    const last = events.at(-1)!.seq;
    await expect(run.fork({ at: last + 1 })).rejects.toThrow(new ForkRefusedError(`run ${run.workflowId} has no event ${last + 1}: its events go up to ${last}`));
    await expect(run.fork({ at: -1 })).rejects.toThrow(ForkRefusedError);
    await expect(run.fork({ at: 1, message: '  ' })).rejects.toThrow('`message` must not be empty');
    await expect(run.fork({ at: 1, model: '' })).rejects.toThrow('`model` must not be empty');
    expect(await env.client.list({ query: `AgentForkOf = '${run.workflowId}'` })).toEqual([]);
  });
});
