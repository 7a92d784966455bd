import type { CliCommand, CommandContext } from '../command';
import { requirePositional, UsageError } from '../command';
import { printJson } from '../cli-output';
// Only the list of policies: `--help` and usage errors load no schedule code.
import { SCHEDULE_OVERLAPS } from '../../client/schedules/overlaps';

const SUBCOMMANDS = ['create', 'list', 'describe', 'pause', 'unpause', 'trigger', 'backfill', 'delete'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const DETAILS = [
  'Runs an agent on a Temporal Schedule: at each fire (cron expressions in UTC, or every DURATION) the schedule starts',
  'a run of the agent with the prompt, named `<ID>-<fire time>`; with --session, each fire is a turn of one conversation',
  'instead, so the agent keeps its context. The schedule lives in Temporal (the Web UI\'s Schedules page shows it); no',
  'worker or process of ours keeps time. Subcommands:',
  '  create ID --agent NAME (--cron EXPR | --every DURATION) --prompt TEXT [options]   make it (refused, creating nothing,',
  '      for a bad cron expression or option, an agent the task queue\'s workers do not serve, or an id in use)',
  '  list                          the schedules of agent runs',
  '  describe ID                   its spec, state, next fires, recent runs and what each fire starts',
  '  pause ID [--note TEXT]        no fires until unpause (trigger and backfill still start runs)',
  '  unpause ID [--note TEXT]',
  '  trigger ID [--overlap P]      fire once now',
  '  backfill ID --start T --end T [--overlap P]   take now the fires the spec had between T and T',
  '  delete ID                     delete it (its runs go on)',
  'The runs: `list --schedule ID`. See docs/schedules.md.',
].join('\n');

async function create(ctx: CommandContext, id: string): Promise<number> {
  const { createOptionsFromFlags } = require('../schedule/schedule-flags') as typeof import('../schedule/schedule-flags');
  const { checkServedAgent } = require('../schedule/served-agent') as typeof import('../schedule/served-agent');
  const { specText } = require('../schedule/schedule-text') as typeof import('../schedule/schedule-text');
  const { checkedScheduleOptions } = require('../../client/schedules/schedule-options') as typeof import('../../client/schedules/schedule-options');
  const { agent, options } = createOptionsFromFlags(id, ctx.values);
  // A bad cron expression or option is a usage error, refused before any connection.
  try {
    checkedScheduleOptions(options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const client = await ctx.connect();
  const check = await checkServedAgent(client, agent);
  if (check.outcome === 'not_served') {
    ctx.output.err(check.message);
    return 1;
  }
  if (check.outcome === 'no_worker') ctx.output.err(check.message);
  const schedule = await client.schedule(agent, options);
  const description = await schedule.describe();
  if (ctx.json) printJson(ctx.output, { id, agent, webUiUrl: schedule.webUiUrl, paused: description.paused, nextFireTimes: description.nextFireTimes });
  else {
    ctx.output.out(`Created schedule ${id}: agent ${agent}, ${specText(description.spec)}${description.paused ? ', paused' : ''}${options.conversation ? `, turns of conversation ${options.conversation.sessionId}` : ''}`);
    ctx.output.out(`Next fire: ${description.nextFireTimes[0]?.toISOString() ?? '-'}`);
    ctx.output.out(`Web UI: ${schedule.webUiUrl}`);
  }
  return 0;
}

async function onSchedule(ctx: CommandContext, subcommand: Exclude<Subcommand, 'create' | 'list'>, id: string): Promise<number> {
  const { backfillFromFlags, overlapFromFlags } = require('../schedule/schedule-flags') as typeof import('../schedule/schedule-flags');
  const backfill = subcommand === 'backfill' ? backfillFromFlags(ctx.values) : undefined;
  const overlap = subcommand === 'trigger' ? overlapFromFlags(ctx.values) : undefined;
  const note = typeof ctx.values.note === 'string' ? ctx.values.note : undefined;
  const client = await ctx.connect();
  const schedule = await client.getSchedule(id);
  if (subcommand === 'describe') {
    const description = await schedule.describe();
    if (ctx.json) printJson(ctx.output, { ...description, webUiUrl: schedule.webUiUrl });
    else {
      const { describeLines } = require('../schedule/schedule-text') as typeof import('../schedule/schedule-text');
      for (const line of describeLines(description, schedule.webUiUrl)) ctx.output.out(line);
    }
    return 0;
  }
  if (subcommand === 'pause') await schedule.pause(note);
  else if (subcommand === 'unpause') await schedule.unpause(note);
  else if (subcommand === 'trigger') await schedule.trigger(overlap ? { overlap } : {});
  else if (subcommand === 'backfill') await schedule.backfill(backfill!);
  else await schedule.delete();
  const done = { pause: 'paused', unpause: 'unpaused', trigger: 'triggered', backfill: 'backfilled', delete: 'deleted' }[subcommand];
  if (ctx.json) printJson(ctx.output, { id, done, ...(backfill ? { start: backfill.start, end: backfill.end } : {}) });
  else ctx.output.out(`Schedule ${id} ${done}${backfill ? ` from ${backfill.start.toISOString()} to ${backfill.end.toISOString()}` : ''}.`);
  return 0;
}

export const scheduleCommand: CliCommand = {
  name: 'schedule',
  usage: 'schedule create|list|describe|pause|unpause|trigger|backfill|delete [ID] [options] [--json]',
  summary: 'Run an agent on a Temporal Schedule (cron or every): create, list, describe, pause, unpause, trigger, backfill, delete.',
  details: DETAILS,
  options: {
    agent: { type: 'string', valueName: 'NAME', description: 'create: the agent each fire runs, as the worker knows it (required)' },
    prompt: { type: 'string', valueName: 'TEXT', description: "create: each fire's prompt (a conversation's message) (required)" },
    cron: { type: 'string', multiple: true, valueName: 'EXPR', description: "create: when to fire, a cron expression of five fields in UTC, e.g. '0 9 * * 1-5' (repeatable; or --every)" },
    every: { type: 'string', valueName: 'DURATION', description: "create: when to fire, every this long, e.g. '30s', '1h' (or --cron)" },
    user: { type: 'string', valueName: 'ID', description: 'create: user id for the tools (runtime context)' },
    'max-iters': { type: 'string', valueName: 'N', description: 'create: model calls that may use tools, per run (per turn)', defaultText: "the agent's maxIters" },
    budget: { type: 'string', valueName: 'JSON', description: 'create: what each run (a conversation, in all) may spend, e.g. \'{"cost": 2}\' (see docs/budgets.md)' },
    model: { type: 'string', valueName: 'NAME', description: "create: the model the runs call in place of the agent's" },
    overlap: {
      type: 'string',
      valueName: 'POLICY',
      choices: SCHEDULE_OVERLAPS,
      description: "create: what a fire does while the last fire's run goes; trigger, backfill: for this request",
      defaultText: 'create: skip; trigger, backfill: allowAll',
    },
    'catchup-window': { type: 'string', valueName: 'DURATION', description: 'create: how late a missed fire (the server was down) is still taken', defaultText: '5 minutes' },
    paused: { type: 'boolean', description: 'create: create it paused' },
    note: { type: 'string', valueName: 'TEXT', description: 'create, pause, unpause: why (shown by describe and the Web UI)' },
    session: { type: 'string', valueName: 'ID', description: 'create: each fire is a turn of the conversation of this session id, which keeps its context' },
    start: { type: 'string', valueName: 'TIME', description: 'backfill: the window\'s start, e.g. 2026-01-10T00:00:00Z (required)' },
    end: { type: 'string', valueName: 'TIME', description: 'backfill: the window\'s end (required)' },
  },
  examples: [
    "schedule create nightly-report --agent support --cron '0 2 * * *' --prompt 'Summarise the open tickets' --budget '{\"cost\": 1}'",
    "schedule create standup --agent support --every 1h --session team-standup --prompt 'What changed since last time?'",
    'schedule list',
    'schedule describe nightly-report --json',
    "schedule pause nightly-report --note 'holidays'",
    'schedule trigger nightly-report',
    'schedule backfill nightly-report --start 2026-01-10T00:00:00Z --end 2026-01-12T00:00:00Z',
    'schedule delete nightly-report',
  ],
  async run(ctx) {
    const subcommand = ctx.positionals[0];
    if (!subcommand || !(SUBCOMMANDS as readonly string[]).includes(subcommand)) {
      throw new UsageError(subcommand ? `unknown subcommand '${subcommand}': give one of ${SUBCOMMANDS.join(', ')}` : `give a subcommand: ${SUBCOMMANDS.join(', ')}`);
    }
    if (subcommand === 'list') {
      const client = await ctx.connect();
      const schedules = await client.listSchedules();
      if (ctx.json) printJson(ctx.output, schedules);
      else if (schedules.length === 0) ctx.output.out('No schedules of agent runs.');
      else {
        const { scheduleTable } = require('../schedule/schedule-text') as typeof import('../schedule/schedule-text');
        for (const line of scheduleTable(schedules)) ctx.output.out(line);
      }
      return 0;
    }
    const id = requirePositional(ctx, 1, 'schedule id');
    return subcommand === 'create' ? create(ctx, id) : onSchedule(ctx, subcommand as Exclude<Subcommand, 'create' | 'list'>, id);
  },
};
