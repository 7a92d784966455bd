import { defineAgent } from '../../src/toolkit/define-agent';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';

const digest = defineAgent({ name: 'cli-sched-digest', instructions: 'Summarise briefly.' });

const unique = (name: string) => `${name}-${process.pid}-${Date.now().toString(36)}`;

interface Listed {
  workflowId: string;
  agent?: string;
  temporalStatus: string;
}

describe('durable-agent schedule and list --schedule', () => {
  let env: AgentTestEnv;
  let common: string[];
  const created: string[] = [];
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [digest], script: (_request, info) => `Digest of: ${info.lastUserText}` });
    common = ['--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', env.taskQueue];
  });
  afterAll(async () => {
    for (const id of created) await runCliCaptured(['schedule', 'delete', id, ...common]);
    await env?.stop();
  });

  const cli = (...argv: string[]) => runCliCaptured([...argv, ...common]);
  const listed = async (id: string) => JSON.parse((await cli('list', '--schedule', id, '--json')).out.join('\n')) as Listed[];

  test('create --every --json, list --schedule, describe, list, pause, trigger, backfill, delete', async () => {
    const id = unique('cli-sched');
    const made = await cli('schedule', 'create', id, '--agent', 'cli-sched-digest', '--every', '2s', '--prompt', 'the day in short', '--budget', '{"tokens": 40000}', '--max-iters', '2', '--json');
    expect(made.err.filter(Boolean)).toEqual([]);
    expect(made.code).toBe(0);
    created.push(id);
    const printed = JSON.parse(made.out.join('\n')) as { id: string; agent: string; webUiUrl: string; paused: boolean; nextFireTimes: string[] };
    expect(printed).toMatchObject({ id, agent: 'cli-sched-digest', paused: false });
    expect(printed.webUiUrl).toMatch(new RegExp(`/namespaces/default/schedules/${id}$`));

    const runs = await waitFor(async () => {
      const found = (await listed(id)).filter((run) => run.temporalStatus === 'COMPLETED');
      return found.length >= 2 ? found : undefined;
    }, 'two fires in list --schedule', 30_000);
    for (const run of runs) {
      expect(run.agent).toBe('cli-sched-digest');
      expect(run.workflowId.startsWith(`${id}-`)).toBe(true);
      expect((await env.client.get(run.workflowId).result()).output).toBe('Digest of: the day in short');
    }
    const table = await cli('list', '--schedule', id);
    expect(table.out[0]).toMatch(/^RUN +AGENT +STATUS/);
    expect(table.out.slice(1).every((line) => line.startsWith(`${id}-`))).toBe(true);

    const described = JSON.parse((await cli('schedule', 'describe', id, '--json')).out.join('\n')) as Record<string, unknown>;
    expect(described).toMatchObject({ id, agent: 'cli-sched-digest', prompt: 'the day in short', budget: { tokens: 40_000 }, maxIters: 2, spec: { everyMs: 2000 }, overlap: 'skip' });
    const text = await cli('schedule', 'describe', id);
    expect(text.out[0]).toBe(`Schedule ${id}: agent cli-sched-digest, every 2s`);

    const all = await waitFor(async () => {
      const schedules = JSON.parse((await cli('schedule', 'list', '--json')).out.join('\n')) as { id: string; agent: string }[];
      return schedules.some((schedule) => schedule.id === id) ? schedules : undefined;
    }, 'the schedule in schedule list');
    expect(all.find((schedule) => schedule.id === id)).toMatchObject({ agent: 'cli-sched-digest', workflowType: 'agentWorkflow' });
    expect((await cli('schedule', 'list')).out.some((line) => new RegExp(`^${id} +cli-sched-digest +run +active`).test(line))).toBe(true);

    expect((await cli('schedule', 'pause', id, '--note', 'maintenance')).out).toEqual([`Schedule ${id} paused.`]);
    const paused = JSON.parse((await cli('schedule', 'describe', id, '--json')).out.join('\n')) as { paused: boolean; note: string; firesTaken: number };
    expect(paused).toMatchObject({ paused: true, note: 'maintenance' });
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const before = (await listed(id)).length;
    expect(before).toBe(paused.firesTaken);

    expect((await cli('schedule', 'trigger', id)).code).toBe(0);
    await waitFor(async () => ((await listed(id)).length === before + 1 ? true : undefined), 'the triggered run');

    const backfill = await cli('schedule', 'backfill', id, '--start', '2026-01-10T00:00:00Z', '--end', '2026-01-10T00:00:05Z', '--json');
    expect(backfill.err.filter(Boolean)).toEqual([]);
    expect(JSON.parse(backfill.out.join('\n'))).toEqual({ id, done: 'backfilled', start: '2026-01-10T00:00:00.000Z', end: '2026-01-10T00:00:05.000Z' });
    // Every 2s over 00:00:00–00:00:05: 00, 02 and 04.
    await waitFor(async () => {
      const ids = (await listed(id)).map((run) => run.workflowId);
      return ['00', '02', '04'].every((second) => ids.includes(`${id}-2026-01-10T00:00:${second}Z`)) ? true : undefined;
    }, 'the backfilled runs');

    expect((await cli('schedule', 'delete', id)).out).toEqual([`Schedule ${id} deleted.`]);
    const gone = await cli('schedule', 'describe', id);
    expect(gone.code).toBe(1);
    expect(gone.err.join('\n')).toContain(`Schedule '${id}' not found`);
  });

  test('refused, creating nothing: a bad cron (named), an agent no worker serves (with a suggestion), an id in use; usage errors', async () => {
    const id = unique('cli-sched-bad');
    const badCron = await cli('schedule', 'create', id, '--agent', 'cli-sched-digest', '--cron', '0 25 * * *', '--prompt', 'x');
    expect(badCron.code).toBe(2);
    expect(badCron.err.join('\n')).toContain("cron expression '0 25 * * *': Invalid value for hour: 25");

    const typo = await cli('schedule', 'create', id, '--agent', 'cli-sched-digets', '--every', '1h', '--prompt', 'x');
    expect(typo.code).toBe(1);
    expect(typo.err.join('\n')).toContain(`No worker of task queue '${env.taskQueue}' serves agent 'cli-sched-digets' (its workers serve cli-sched-digest). Did you mean 'cli-sched-digest'?`);

    const schedules = JSON.parse((await cli('schedule', 'list', '--json')).out.join('\n')) as { id: string }[];
    expect(schedules.filter((schedule) => schedule.id === id)).toEqual([]);
    expect((await cli('schedule', 'describe', id)).code).toBe(1);

    expect((await cli('schedule', 'create', id, '--agent', 'cli-sched-digest', '--every', '1h', '--prompt', 'first', '--paused')).code).toBe(0);
    created.push(id);
    const again = await cli('schedule', 'create', id, '--agent', 'cli-sched-digest', '--every', '1h', '--prompt', 'second');
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toContain(`A schedule with id '${id}' exists already; nothing was created`);
    expect(JSON.parse((await cli('schedule', 'describe', id, '--json')).out.join('\n'))).toMatchObject({ prompt: 'first', paused: true });

    // No worker on the queue: nothing to check the agent against, so a warning, and the schedule is made.
    const lonely = unique('cli-sched-lonely');
    const noWorker = await runCliCaptured(['schedule', 'create', lonely, '--agent', 'someone', '--every', '1h', '--prompt', 'x', '--paused', '--address', process.env.TEMPORAL_TEST_ADDRESS!, '--task-queue', uniqueTaskQueue('empty')]);
    created.push(lonely);
    expect(noWorker.code).toBe(0);
    expect(noWorker.err.join('\n')).toContain("so agent 'someone' could not be checked");

    expect((await cli('schedule', 'create', 'x', '--agent', 'a', '--prompt', 'p')).err[0]).toContain('give --cron EXPR (repeatable) or --every DURATION, not both');
    expect((await cli('schedule', 'create', 'x', '--agent', 'a', '--every', '1h', '--prompt', 'p', '--overlap', 'never')).code).toBe(2);
    expect((await cli('schedule', 'backfill', 'x', '--start', 'yesterday', '--end', '2026-01-01T00:00:00Z')).err[0]).toContain('--start takes a time');
    expect((await cli('schedule', 'frobnicate')).err[0]).toContain("unknown subcommand 'frobnicate'");
    expect((await cli('schedule', 'pause')).err[0]).toContain('missing schedule id');
  });
});
