import { defaultPayloadConverter } from '@temporalio/common';
import type { AgentRun } from '../../src/client/agent-run';
import type { AgentEvent } from '../../src/common/events';
import type { AssistantMessage } from '../../src/common/messages';
import { defineAgent } from '../../src/toolkit/define-agent';
import { addTool } from '../fixtures/test-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';

const fallbackAgent = defineAgent({
  name: 'fallback',
  instructions: 'You add numbers.',
  tools: [addTool],
  model: { name: 'primary', fallbacks: ['backup'], maximumAttempts: 2 },
});

function assistants(messages: { role: string }[]): AssistantMessage[] {
  return messages.filter((m): m is AssistantMessage => m.role === 'assistant');
}

function modelEvents(events: AgentEvent[]) {
  return events.flatMap((e) =>
    e.type === 'model_call_started' || e.type === 'model_call_finished' ? [`${e.type.replace('model_call_', '')} ${e.model}`] : [],
  );
}

/** The summaries the workflow gave its model activities, in schedule order. */
async function modelCallSummaries(run: AgentRun): Promise<string[]> {
  const history = await run.handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    const summary = scheduled?.activityType?.name === 'callModel' ? e.userMetadata?.summary : undefined;
    return summary ? [defaultPayloadConverter.fromPayload<string>(summary)] : [];
  });
}

describe('the fallback chain of models', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [fallbackAgent] });
  });
  afterAll(async () => {
    await env?.stop();
  });

  test('primary answers 400: the fallback answers at once, and the result and events name it', async () => {
    env.model.setScript([{ text: 'never', faults: [{ status: 400, times: 10 }] }], { model: 'primary' });
    env.model.setScript(['The backup answered.'], { model: 'backup' });
    const before = env.model.requests.length;
    const run = await env.client.start('fallback', { prompt: 'hello' });
    const result = await run.result();

    expect(result.output).toBe('The backup answered.');
    expect(assistants(result.messages).map((m) => m.model)).toEqual(['backup']);
    expect(env.model.requests.slice(before).map((r) => r.model)).toEqual(['primary', 'backup']);
    const events = await run.eventsAfter(0);
    expect(modelEvents(events)).toEqual(['started primary', 'started backup', 'finished backup']);
    expect(await modelCallSummaries(run)).toEqual(['model primary #1', 'model backup #1']);
  });

  test('primary answers 503 until its attempts are spent: then the fallback answers', async () => {
    env.model.setScript(
      [
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
        { text: 'never', faults: [{ status: 503, times: 10 }] },
      ],
      { model: 'primary' },
    );
    env.model.setScript(['unused', 'The sum is 3 (from the backup).'], { model: 'backup' });
    const before = env.model.requests.length;
    const run = await env.client.start('fallback', { prompt: 'add 1 and 2' });
    const result = await run.result();

    expect(result.output).toBe('The sum is 3 (from the backup).');
    expect(assistants(result.messages).map((m) => m.model)).toEqual(['primary', 'backup']);
    // maximumAttempts: 2 per model, so the primary got the second turn twice.
    expect(env.model.requests.slice(before).map((r) => `${r.model}#${r.turnIndex}`)).toEqual([
      'primary#0',
      'primary#1',
      'primary#1',
      'backup#1',
    ]);
    const events = await run.eventsAfter(0);
    expect(modelEvents(events)).toEqual([
      'started primary',
      'finished primary',
      'started primary',
      'started backup',
      'finished backup',
    ]);
    expect(await modelCallSummaries(run)).toEqual([
      'model primary #1',
      'model primary #2',
      'model backup #2',
    ]);
  });
});
