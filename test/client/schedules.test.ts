import { defaultPayloadConverter } from '@temporalio/common';
import type { AgentClient } from '../../src/client/agent-client';
import { ScheduleExistsError, ScheduleNotFoundError, ScheduleOptionsError, type AgentSchedule } from '../../src/client/schedules';
import type { AgentStartInput } from '../../src/client/start-request';
import { defineAgent } from '../../src/toolkit/define-agent';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';
import { waitFor } from '../helpers/wait-for';

const reporter = defineAgent({ name: 'sched-reporter', instructions: 'Report briefly.' });

const unique = (name: string) => `${name}-${process.pid}-${Date.now().toString(36)}`;

/** The runs a schedule started, by Temporal's TemporalScheduledById (what `list --schedule` reads). */
async function runsOf(client: AgentClient, scheduleId: string) {
  return client.list({ query: `TemporalScheduledById = '${scheduleId}'`, limit: 100 });
}

async function startInputOf(client: AgentClient, workflowId: string): Promise<AgentStartInput> {
  const history = await client.client.workflow.getHandle(workflowId).fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return defaultPayloadConverter.fromPayload(payload) as AgentStartInput;
}

describe('agents on a schedule (Temporal Schedules)', () => {
  let env: AgentTestEnv;
  const created: AgentSchedule[] = [];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [reporter], script: (_request, info) => `Report for: ${info.lastUserText} (turn ${info.turnIndex})` });
  });
  afterAll(async () => {
    for (const schedule of created) await schedule.delete().catch(() => undefined);
    await env?.stop();
  });

  async function schedule(options: Parameters<AgentClient['schedule']>[1]): Promise<AgentSchedule> {
    const made = await env.client.schedule(reporter, options);
    created.push(made);
    return made;
  }

  test('every 2s: fires start runs named after the schedule with its prompt, budget and maxIters; describe reads them back; pause stops the fires and unpause resumes them', async () => {
    const id = unique('sched-every');
    const made = await schedule({ id, every: '2s', prompt: 'the nightly numbers', budget: { tokens: 50_000 }, maxIters: 3, userId: 'u-sched' });
    const fired = await waitFor(async () => {
      const runs = (await runsOf(env.client, id)).filter((run) => run.temporalStatus === 'COMPLETED');
      return runs.length >= 2 ? runs : undefined;
    }, 'two completed fires', 30_000);
    for (const run of fired) {
      expect(run.workflowId).toMatch(new RegExp(`^${id}-\\d{4}-\\d\\d-\\d\\dT`));
      expect(run.agent).toBe('sched-reporter');
      const input = await startInputOf(env.client, run.workflowId);
      expect(input).toMatchObject({ agent: 'sched-reporter', prompt: 'the nightly numbers', options: { budget: { tokens: 50_000 }, maxIters: 3 }, runtime: { userId: 'u-sched' } });
      const handle = env.client.get(run.workflowId);
      expect((await handle.result()).output).toBe('Report for: the nightly numbers (turn 0)');
      expect((await handle.state()).budget?.limit).toEqual({ tokens: 50_000 });
    }

    const described = await made.describe();
    expect(described).toMatchObject({ id, agent: 'sched-reporter', prompt: 'the nightly numbers', budget: { tokens: 50_000 }, maxIters: 3, userId: 'u-sched', spec: { everyMs: 2_000 }, overlap: 'skip', catchupWindowMs: 300_000, paused: false });
    expect(described.nextFireTimes.length).toBeGreaterThan(0);
    expect(described.recentRuns.map((run) => run.workflowId)).toEqual(expect.arrayContaining(fired.map((run) => run.workflowId)));

    await made.pause('quiet hours');
    expect(await made.describe()).toMatchObject({ paused: true, note: 'quiet hours' });
    const pausedAt = (await made.describe()).firesTaken;
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect((await made.describe()).firesTaken).toBe(pausedAt);

    await made.unpause('back on');
    await waitFor(async () => ((await made.describe()).firesTaken > pausedAt ? true : undefined), 'a fire after unpause', 10_000);
    expect(await made.describe()).toMatchObject({ paused: false });

    const listed = await waitFor(async () => (await env.client.listSchedules()).find((summary) => summary.id === id), 'the schedule in listSchedules');
    expect(listed).toMatchObject({ agent: 'sched-reporter', workflowType: 'agentWorkflow', paused: false });
    expect((await env.client.getSchedule(id)).id).toBe(id);
  });

  test('trigger starts a run at once; backfill over a past window starts the fires the spec had in it', async () => {
    const id = unique('sched-hourly');
    const made = await schedule({ id, cron: '0 * * * *', prompt: 'hourly check', paused: true, note: 'fired by hand' });
    await made.trigger();
    const triggered = await waitFor(async () => {
      const runs = await runsOf(env.client, id);
      return runs.length === 1 ? runs[0] : undefined;
    }, 'the triggered run');
    expect((await env.client.get(triggered.workflowId).result()).output).toBe('Report for: hourly check (turn 0)');

    // 00:00 to 03:30 of a past day has the hours 00, 01, 02 and 03.
    await made.backfill({ start: '2026-01-10T00:00:00Z', end: '2026-01-10T03:30:00Z' });
    const backfilled = await waitFor(async () => {
      const runs = (await runsOf(env.client, id)).filter((run) => run.workflowId !== triggered.workflowId);
      return runs.length >= 4 ? runs : undefined;
    }, 'four backfilled runs');
    expect(backfilled.map((run) => run.workflowId).sort()).toEqual([0, 1, 2, 3].map((hour) => `${id}-2026-01-10T0${hour}:00:00Z`));
    expect(await made.describe()).toMatchObject({ paused: true, note: 'fired by hand', spec: { cron: ['0 * * * *'] } });
    await expect(made.backfill({ start: '2026-01-10T04:00:00Z', end: '2026-01-10T01:00:00Z' })).rejects.toThrow('the backfill window must start before it ends');
  });

  test('a bad cron expression, a bad option and a duplicate id are refused, and nothing is created', async () => {
    const id = unique('sched-bad');
    await expect(env.client.schedule(reporter, { id, cron: '61 * * * *', prompt: 'x' })).rejects.toThrow(
      new ScheduleOptionsError(id, ["cron expression '61 * * * *': Invalid value for minute: 61"]),
    );
    await expect(env.client.schedule(reporter, { id, cron: ['0 9 * * *', '0 9 * *'], prompt: 'x' })).rejects.toThrow("cron expression '0 9 * *' has 4 field(s)");
    await expect(env.client.schedule(reporter, { id, cron: '0 9 * * *', every: '1h', prompt: 'x' })).rejects.toThrow('give exactly one of cron and every');
    await expect(env.client.schedule(reporter, { id, every: 'soon', prompt: 'x', budget: { tokens: -1 } } as never)).rejects.toThrow(/every "soon" is not a duration.*budget/);
    await expect(env.client.schedule(reporter, { id, every: '1h', prompt: 'x', overlap: 'sometimes' as never })).rejects.toThrow(ScheduleOptionsError);
    await expect(env.client.getSchedule(id)).rejects.toThrow(ScheduleNotFoundError);
    expect((await env.client.listSchedules()).filter((summary) => summary.id === id)).toEqual([]);

    const first = await schedule({ id, every: '1h', prompt: 'once', paused: true });
    await expect(env.client.schedule(reporter, { id, every: '5m', prompt: 'twice' })).rejects.toThrow(ScheduleExistsError);
    expect(await first.describe()).toMatchObject({ prompt: 'once', spec: { everyMs: 3_600_000 } });
  });

  test('a conversation schedule: each fire is a turn of one conversation, which keeps its context', async () => {
    const id = unique('sched-chat');
    const sessionId = unique('standup');
    const made = await schedule({ id, every: '2s', prompt: 'what changed?', conversation: { sessionId }, budget: { tokens: 80_000 } });
    const conversation = env.client.conversation(reporter, { sessionId });
    // Its turns count (AgentTurns, what `list` shows) grows with the fires.
    const listed = await waitFor(async () => {
      const [summary] = await env.client.list({ query: `WorkflowId = '${conversation.workflowId}'` });
      return summary && (summary.turns ?? 0) >= 3 ? summary : undefined;
    }, 'three turns of the conversation', 30_000);
    expect(listed).toMatchObject({ agent: 'sched-reporter', sessionId });
    await made.pause();
    const state = await conversation.run.state();
    expect(state.budget?.limit).toEqual({ tokens: 80_000 });
    const { messages } = await conversation.messages();
    const users = messages.filter((message) => message.role === 'user').slice(0, 3);
    expect(users.map((message) => message.content)).toEqual(['what changed?', 'what changed?', 'what changed?']);
    // One conversation: the second turn's answer was written with the first turn in its context.
    expect(messages.filter((message) => message.role === 'assistant').slice(0, 2).map((message) => message.content)).toEqual([
      'Report for: what changed? (turn 0)',
      'Report for: what changed? (turn 1)',
    ]);
    const described = await made.describe();
    expect(described).toMatchObject({ agent: 'sched-reporter', prompt: 'what changed?', conversation: { sessionId, workflowId: conversation.workflowId }, budget: { tokens: 80_000 } });
    const fires = await runsOf(env.client, id);
    expect(fires.length).toBeGreaterThanOrEqual(3);
    const fire = await env.client.client.workflow.getHandle(described.recentRuns[0]!.workflowId).result();
    expect(fire).toMatchObject({ conversationWorkflowId: conversation.workflowId, turn: { turn: 1, status: 'completed' } });
    await maybeRecordHistory(env.client.get(described.recentRuns[0]!.workflowId), 'scheduled-turn');
    await conversation.end();

    // An ended conversation takes no more turns: the next fire fails, saying so.
    const taken = (await made.describe()).firesTaken;
    await made.trigger();
    const late = await waitFor(async () => {
      const now = await made.describe();
      return now.firesTaken > taken ? now.recentRuns.at(-1)! : undefined;
    }, 'the fire after the end');
    const failure = await env.client.client.workflow.getHandle(late.workflowId, late.runId).result().then(
      (result) => JSON.stringify(result),
      (error: Error & { cause?: Error & { cause?: Error } }) => error.cause?.cause?.message,
    );
    expect(failure).toBe(`The conversation ${conversation.workflowId} has ended and takes no more messages; give the schedule another sessionId.`);
  });
});
