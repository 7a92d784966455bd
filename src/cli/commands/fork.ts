import type { CliCommand } from '../command';
import { webUiHint } from '../../client/client-config';
import { requirePositional, stringOption, UsageError } from '../command';
import { printJson } from '../cli-output';
import { followRun } from './watch';
import { budgetOption } from '../budget-option';

export const forkCommand: CliCommand = {
  name: 'fork',
  usage: 'fork ID --at SEQ [--message TEXT] [--model NAME] [--instructions TEXT] [--id ID] [--user ID] [--max-iters N] [--budget JSON] [--watch] [--json]',
  summary: "Start a new run from a run's conversation as it stood after one of its events.",
  details:
    'The fork starts from the messages, tool results, spend, tool groups and session rules the run had after its\n' +
    'event SEQ (the numbers `watch --json` and `stream` show; 0: before any), and calls the model next. Nothing that\n' +
    'ran before that point runs again: a call that had not finished is answered as not run. --message takes the place\n' +
    'of the last user message when the fork point is right after one (an edit), else it is added. A conversation forks\n' +
    'into a conversation; a sub-agent run into a run of its agent. The fork records where it came from: `list` shows\n' +
    'it (FORK OF; `list --forks-of ID`), and so do the Web UI (search attribute AgentForkOf) and the inbox.',
  options: {
    at: { type: 'string', valueName: 'SEQ', description: 'the event to fork after (required)' },
    message: { type: 'string', valueName: 'TEXT', description: 'a user message: the last one edited, or one more' },
    model: { type: 'string', valueName: 'NAME', description: "the model the fork calls in place of the agent's" },
    instructions: { type: 'string', valueName: 'TEXT', description: "the system message in place of the run's" },
    id: { type: 'string', valueName: 'ID', description: "the fork's workflow id (a conversation's: its session id)", defaultText: '<ID>-fork-<random>' },
    user: { type: 'string', valueName: 'ID', description: 'the user the fork runs for', defaultText: "the run's" },
    'max-iters': { type: 'string', valueName: 'N', description: 'model calls that may use tools, counted from the run\'s start', defaultText: "the run's" },
    budget: { type: 'string', valueName: 'JSON', description: "the fork's budget; what the run spent by the fork point counts against it", defaultText: "the run's" },
    watch: { type: 'boolean', description: 'follow the fork until it ends, as `watch` does' },
  },
  examples: [
    'fork support-ab12cd34 --at 12 --model gpt-4o --watch',
    "fork support-ab12cd34 --at 0 --message 'Where is ORD-2024-002?'",
    "fork support-ab12cd34 --at 7 --instructions 'Never refund without the order id.'",
  ],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const at = stringOption(ctx, 'at');
    if (at === undefined || !/^\d+$/.test(at)) throw new UsageError('--at takes the seq of an event (a whole number from 0)');
    const maxIters = stringOption(ctx, 'max-iters');
    if (maxIters !== undefined && !/^[1-9]\d*$/.test(maxIters)) throw new UsageError('--max-iters takes a positive integer');
    const budget = budgetOption(stringOption(ctx, 'budget'));
    const client = await ctx.connect();
    const fork = await client.get(id).fork({
      at: Number(at),
      ...optional('message', stringOption(ctx, 'message')),
      ...optional('model', stringOption(ctx, 'model')),
      ...optional('instructions', stringOption(ctx, 'instructions')),
      ...optional('id', stringOption(ctx, 'id')),
      ...optional('userId', stringOption(ctx, 'user')),
      ...(maxIters ? { maxIters: Number(maxIters) } : {}),
      ...(budget ? { budget } : {}),
    });
    if (ctx.json) printJson(ctx.output, { workflowId: fork.workflowId, webUiUrl: fork.webUiUrl, forkOf: id, at: Number(at) });
    else {
      ctx.output.out(`Forked ${id} after event ${at}: ${fork.workflowId}`);
      const hint = webUiHint(client.config.address);
      ctx.output.out(`Web UI: ${fork.webUiUrl}${hint ? ` (${hint})` : ''}`);
    }
    return ctx.values.watch ? followRun(ctx, fork) : 0;
  },
};

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value !== undefined ? ({ [key]: value } as Record<K, string>) : {};
}
