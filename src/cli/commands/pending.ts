import { findWaitingRuns, WAITING_STATE_TIMEOUT_MS, type WaitingRuns } from '../../client/find-waiting-runs';
import type { CliCommand } from '../command';
import { printJson } from '../cli-output';
import { describePending, waitingRunsLink } from '../waiting-runs';

/** `pending` that found waiting runs it could not read: exit code 4, so a script never takes it for "nothing is waiting". */
export const UNREADABLE_EXIT_CODE = 4;

export const pendingCommand: CliCommand = {
  name: 'pending',
  usage: 'pending [ID] [--json]',
  summary: 'Runs waiting for a person (approval or external result), with call ids, tools, arguments and the commands that answer them.',
  details:
    'Without ID: every open run whose AgentStatus is awaiting_approval or awaiting_external (through visibility).\n' +
    "A call that waits in a sub-agent run is listed once, under the topmost run, with commands that name the sub-agent's run (the top-level id works too).\n" +
    "Each call is listed with the CLI commands that answer it and the Web UI's Send Signal payload.\n" +
    'A waiting run whose state cannot be read is listed as unreadable with the reason: undecryptable (no keys,\n' +
    `or not the key it was encrypted with), no_answer (no worker answered within ${WAITING_STATE_TIMEOUT_MS / 1000} s) or error; --json gives it as\n` +
    `{ workflowId, agent, status, unreadable: { reason, message } }. Then the exit code is ${UNREADABLE_EXIT_CODE}.`,
  options: {},
  examples: ['pending', 'pending ecommerce-cs-ab12cd34 --json'],
  async run(ctx) {
    const client = await ctx.connect();
    const id = ctx.positionals[0];
    const found: WaitingRuns = id
      ? { runs: [await client.get(id).state().then((state) => ({ workflowId: id, agent: state.agent, status: state.status, pending: state.pending }))], unreadable: [] }
      : await findWaitingRuns(client);
    const code = found.unreadable.length > 0 ? UNREADABLE_EXIT_CODE : 0;
    if (ctx.json) {
      printJson(ctx.output, [...found.runs, ...found.unreadable]);
      return code;
    }
    const runs = found.runs.filter((run) => run.pending.length > 0);
    if (runs.length === 0 && found.unreadable.length === 0) {
      ctx.output.out('Nothing is waiting.');
      return 0;
    }
    // The Web UI link is printed once, after every run.
    for (const run of runs) for (const line of describePending(run.workflowId, run.pending, client.config).slice(0, -1)) ctx.output.out(line);
    for (const run of found.unreadable) {
      ctx.output.out(`${run.workflowId}  ${run.status ?? '?'}  unreadable (${run.unreadable.reason}): ${run.unreadable.message}`);
    }
    ctx.output.out(`Runs waiting in the Web UI: ${waitingRunsLink(client.config)}`);
    if (code !== 0) {
      const count = found.unreadable.length;
      ctx.output.err(`${count} waiting run${count === 1 ? '' : 's'} could not be read, so ${count === 1 ? 'its' : 'their'} calls are not listed (exit code ${code}).`);
    }
    return code;
  },
};
