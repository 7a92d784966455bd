import { findWaitingRuns, type WaitingRun } from '../../find-waiting-runs';
import type { CliCommand } from '../command';
import { printJson } from '../cli-output';
import { describePending, waitingRunsLink } from '../waiting-runs';

export const pendingCommand: CliCommand = {
  name: 'pending',
  usage: 'pending [ID] [--json]',
  summary: 'Runs waiting for a person (approval or external result), with call ids, tools, arguments and the commands that answer them.',
  details:
    'Without ID: every open run whose AgentStatus is awaiting_approval or awaiting_external (through visibility).\n' +
    "A call that waits in a sub-agent run is listed once, under the topmost run, with commands that name the sub-agent's run (the top-level id works too).\n" +
    "Each call is listed with the CLI commands that answer it and the Web UI's Send Signal payload.",
  options: {},
  examples: ['pending', 'pending ecommerce-cs-ab12cd34 --json'],
  async run(ctx) {
    const client = await ctx.connect();
    const id = ctx.positionals[0];
    const runs: WaitingRun[] = id
      ? [await client.get(id).state().then((state) => ({ workflowId: id, agent: state.agent, status: state.status, pending: state.pending }))]
      : await findWaitingRuns(client, (unreadable, error) => ctx.output.err(`${unreadable}: could not read its state (${error.message})`));
    if (ctx.json) {
      printJson(ctx.output, runs);
      return 0;
    }
    if (runs.every((run) => run.pending.length === 0)) {
      ctx.output.out('Nothing is waiting.');
      return 0;
    }
    for (const run of runs) {
      // The Web UI link is printed once, after every run.
      if (run.pending.length > 0) for (const line of describePending(run.workflowId, run.pending, client.config).slice(0, -1)) ctx.output.out(line);
    }
    ctx.output.out(`Runs waiting in the Web UI: ${waitingRunsLink(client.config)}`);
    return 0;
  },
};
