import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../../src/common/failures';
import { defineAgent } from '../../src/toolkit/define-agent';
import { EMPTY_REPLY_REMINDER } from '../../src/workflows/run/iteration-limit';
import { addTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const agent = defineAgent({ name: 'terse', instructions: 'You add numbers.', tools: [addTool], maxIters: 10, maxEmptyReplies: 2 });

describe('empty model replies', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [agent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('one empty reply, then an answer: the run completes and the reminder is in the messages', async () => {
    env.model.setScript([{}, 'Here is the answer.']);
    const before = env.model.requests.length;
    const run = await env.client.start('terse', { prompt: 'hello' });
    const result = await run.result();

    expect(result.status).toBe('completed');
    expect(result.output).toBe('Here is the answer.');
    expect(result.iterations).toBe(2);
    expect(result.messages.slice(2).map((m) => [m.role, m.content])).toEqual([
      ['assistant', ''],
      ['user', EMPTY_REPLY_REMINDER.content],
      ['assistant', 'Here is the answer.'],
    ]);
    // The model saw the reminder.
    const second = env.model.requests.slice(before)[1];
    expect(second.body.messages.at(-1)).toMatchObject({ role: 'user', content: EMPTY_REPLY_REMINDER.content });
  });

  test('more empty replies in a row than maxEmptyReplies: the run fails with Agent.EmptyReplies', async () => {
    env.model.setScript(() => ({}));
    const before = env.model.requests.length;
    const run = await env.client.start('terse', { prompt: 'hello' });
    const error = await run.result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause.type).toBe(FailureTypes.emptyReplies);
    expect(cause.message).toBe('The model replied empty 3 times in a row (limit 2).');
    expect(env.model.requests.length - before).toBe(3);
    const state = await run.state();
    expect(state.status).toBe('failed');
    expect(state.messages.filter((m) => m.role === 'user' && m.content === EMPTY_REPLY_REMINDER.content)).toHaveLength(2);
  });
});
