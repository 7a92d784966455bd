import { RUN_STATUSES } from '../../common/run';
import { runFilter } from '../../client/run-filter';
import type { CliCommand } from '../command';
import { choiceOption, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { alignedTable } from '../../text/table';

export const listCommand: CliCommand = {
  name: 'list',
  usage: 'list [--agent NAME] [--status STATUS] [--forks-of ID] [--schedule ID] [--limit N] [--json]',
  summary: 'Recent runs and conversations (with their session and messages answered) and their status, through Temporal visibility.',
  options: {
    agent: { type: 'string', valueName: 'NAME', description: 'only runs of this agent' },
    status: {
      type: 'string',
      valueName: 'STATUS',
      choices: RUN_STATUSES,
      description: 'only runs with this status; a conversation is idle between its turns and ended when over',
    },
    'forks-of': { type: 'string', valueName: 'ID', description: 'only forks of this run (`durable-agent fork`)' },
    schedule: { type: 'string', valueName: 'ID', description: 'only runs started by this schedule (`durable-agent schedule`): its fires, triggers and backfills' },
    limit: { type: 'string', valueName: 'N', description: 'at most this many runs', defaultText: '20' },
  },
  examples: ['list', 'list --agent support --status awaiting_approval', 'list --schedule nightly-report', 'list --limit 100 --json'],
  async run(ctx) {
    const limit = stringOption(ctx, 'limit') ?? '20';
    if (!/^[1-9]\d*$/.test(limit)) throw new UsageError('--limit takes a positive integer');
    const query = runFilter({ agent: stringOption(ctx, 'agent'), status: choiceOption(ctx, 'status', RUN_STATUSES), forkOf: stringOption(ctx, 'forks-of'), schedule: stringOption(ctx, 'schedule') });
    const client = await ctx.connect();
    const runs = await client.list({ ...(query ? { query } : {}), limit: Number(limit) });
    if (ctx.json) {
      printJson(ctx.output, runs);
      return 0;
    }
    if (runs.length === 0) {
      ctx.output.out('No runs.');
      return 0;
    }
    const rows = runs.map((run) => [
      run.workflowId,
      run.agent ?? '?',
      run.status ?? run.temporalStatus,
      run.startTime.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      run.sessionId !== undefined ? `${run.sessionId} (${run.turns ?? 0} message(s))` : '',
    ]);
    // A column of forks' origins only when some run listed is a fork.
    const forks = runs.some((run) => run.forkOf !== undefined);
    const header = ['RUN', 'AGENT', 'STATUS', 'STARTED', 'CONVERSATION', ...(forks ? ['FORK OF'] : [])];
    const table = forks ? rows.map((row, i) => [...row, runs[i]!.forkOf ?? '']) : rows;
    for (const line of alignedTable([header, ...table])) ctx.output.out(line);
    return 0;
  },
};
