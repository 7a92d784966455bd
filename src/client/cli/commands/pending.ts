import type { PendingCall } from '../../../common/run';
import type { CliCommand } from '../command';
import { printJson } from '../cli-output';
import { describePending, waitingRunsLink } from '../waiting-runs';

interface PendingRun {
  workflowId: string;
  agent: string;
  status: string;
  pending: PendingCall[];
}

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
    const ids = ctx.positionals[0]
      ? [ctx.positionals[0]]
      : (await client.list({ query: `AgentStatus = 'awaiting_approval' OR AgentStatus = 'awaiting_external'`, limit: 100 }))
          .filter((run) => run.temporalStatus === 'RUNNING')
          .map((run) => run.workflowId);
    const runs: PendingRun[] = [];
    // A sub-agent's call shows in its own run and in every run above it: it is listed once, under the topmost.
    const listed = new Set<string>();
    for (const id of [...ids].sort((a, b) => a.length - b.length)) {
      try {
        const state = await client.get(id).state();
        const pending = state.pending.filter((call) => !listed.has(`${call.workflowId ?? id}/${call.callId}`));
        for (const call of pending) listed.add(`${call.workflowId ?? id}/${call.callId}`);
        if (pending.length > 0 || ctx.positionals[0]) {
          runs.push({ workflowId: id, agent: state.agent, status: state.status, pending });
        }
      } catch (error) {
        // One run that cannot answer (its workers are down) must not hide the others.
        if (ctx.positionals[0]) throw error;
        ctx.output.err(`${id}: could not read its state (${(error as Error).message})`);
      }
    }
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
