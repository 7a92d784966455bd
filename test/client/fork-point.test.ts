import { forkStartAt, ForkRefusedError, type RecordedRun } from '../../src/client/fork/fork-point';
import type { AgentEvent, AgentEventBody } from '../../src/common/events';
import { NOT_RUN_BEFORE_FORK } from '../../src/common/fork';
import type { Message } from '../../src/common/messages';

const usage = (total: number) => ({ promptTokens: total - 1, completionTokens: 1, totalTokens: total });
const events = (...bodies: AgentEventBody[]): AgentEvent[] => bodies.map((body, index) => ({ ...body, seq: index + 1, at: '2026-12-04T00:00:00.000Z' }) as AgentEvent);

// A run: a reply with two calls (a read-only lookup that ran, a refund that asked and ran), then the answer.
const messages: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'refund A1' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }, { id: 'c2', name: 'refund', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'lookup', content: 'found', state: 'success' },
  { role: 'tool', toolCallId: 'c2', name: 'refund', content: 'refunded', state: 'success' },
  { role: 'assistant', content: 'Done.' },
];
const run = (recorded: AgentEvent[], extra: Partial<RecordedRun> = {}): RecordedRun => ({ workflowId: 'run-1', agent: 'shop', events: recorded, messages, ...extra });
const recorded = events(
  { type: 'iteration_started', iteration: 1 }, // 1
  { type: 'model_call_started', iteration: 1, model: 'm' }, // 2
  { type: 'model_call_finished', iteration: 1, model: 'm', usage: usage(10), toolCalls: 2, text: '', cost: 0.5 }, // 3
  { type: 'tool_call_started', callId: 'c1', tool: 'lookup', input: {} }, // 4
  { type: 'permission_requested', callId: 'c2', tool: 'refund', input: {}, reason: 'asks' }, // 5
  { type: 'tool_call_finished', callId: 'c1', tool: 'lookup', state: 'success', durationMs: 1, preview: 'found' }, // 6
  { type: 'session_rule_added', rule: 'refund', callId: 'c2' }, // 7
  { type: 'permission_decided', callId: 'c2', tool: 'refund', behavior: 'allow', by: 'user', reason: 'ok' }, // 8
  { type: 'tool_call_started', callId: 'c2', tool: 'refund', input: {} }, // 9
  { type: 'tool_call_finished', callId: 'c2', tool: 'refund', state: 'success', durationMs: 1, preview: 'refunded' }, // 10
  { type: 'iteration_started', iteration: 2 }, // 11
  { type: 'model_call_finished', iteration: 2, model: 'm', usage: usage(20), toolCalls: 0, text: 'Done.', cost: 0.25 }, // 12
  { type: 'run_finished', status: 'completed', output: 'Done.' }, // 13
);

describe("a fork's start: the conversation as it stood after an event", () => {
  test('at 0: the prompt alone, nothing spent', () => {
    expect(forkStartAt(run(recorded), 0)).toEqual({ origin: { workflowId: 'run-1', at: 0, agent: 'shop' }, messages: messages.slice(0, 2), usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, iterations: 0, sessionRules: [] });
  });

  test('in the middle of a batch: a call that ended keeps its result, a call that had not ended is answered as not run', () => {
    const start = forkStartAt(run(recorded), 6);
    expect(start.messages.slice(0, 4)).toEqual(messages.slice(0, 4));
    expect(start.messages[4]).toEqual({ role: 'tool', toolCallId: 'c2', name: 'refund', content: NOT_RUN_BEFORE_FORK, state: 'cancelled' });
    expect(start).toMatchObject({ usage: usage(10), cost: 0.5, iterations: 1, sessionRules: [] });
  });

  test("after the batch's last call: every result, the session rule a person's approval added", () => {
    const start = forkStartAt(run(recorded), 10);
    expect(start.messages).toEqual(messages.slice(0, 5));
    expect(start.sessionRules).toEqual(['refund']);
  });

  test('at the end: the whole conversation and its spend', () => {
    expect(forkStartAt(run(recorded), 13)).toMatchObject({ messages, usage: { totalTokens: 30 }, cost: 0.75, iterations: 2 });
  });

  test("the groups as the last change before the point left them; a sub-agent's starting rules", () => {
    const withGroups = events({ type: 'groups_changed', active: ['files'], by: 'model' }, ...recorded.map(({ seq: _seq, at: _at, ...body }) => body as AgentEventBody));
    expect(forkStartAt(run(withGroups, { startingRules: ['lookup'] }), 1)).toMatchObject({ activeGroups: ['files'], sessionRules: ['lookup'] });
    expect(forkStartAt(run(recorded), 3).activeGroups).toBeUndefined();
  });

  test('a conversation: the turns and added inputs seen by then, whole, not as their previews', () => {
    const long = `second question ${'x'.repeat(600)}`;
    const chat: Message[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'first' }, { role: 'assistant', content: 'One.' }, { role: 'user', content: long }, { role: 'assistant', content: 'Two.' }];
    const chatEvents = events(
      { type: 'turn_started', turn: 1, text: 'first' },
      { type: 'model_call_finished', iteration: 1, model: 'm', usage: usage(5), toolCalls: 0, text: 'One.' },
      { type: 'turn_finished', turn: 1, status: 'completed', output: 'One.', usage: usage(5), iterations: 1 },
      { type: 'turn_started', turn: 2, text: `${long.slice(0, 499)}…` },
      { type: 'input_added', position: 1, text: 'and quickly' },
    );
    const start = forkStartAt({ workflowId: 'chat-1', agent: 'chat', events: chatEvents, messages: [...chat.slice(0, 4), { role: 'user', content: 'and quickly' }, chat[4]!] }, 5);
    expect(start.messages).toEqual(chat.slice(0, 4));
    expect(start.turns).toBe(2);
    expect(start.queuedInputs).toEqual([{ position: 1, text: 'and quickly' }]);
  });

  test('a point the run does not keep is refused, naming what it keeps', () => {
    expect(() => forkStartAt(run(recorded), 14)).toThrow(new ForkRefusedError('run run-1 has no event 14: its events go up to 13'));
    expect(() => forkStartAt(run(recorded.slice(5)), 3)).toThrow(new ForkRefusedError('run run-1 keeps its newest events only (from 6): fork at 6 or later'));
    expect(() => forkStartAt(run(recorded), 1.5)).toThrow(ForkRefusedError);
  });
});
