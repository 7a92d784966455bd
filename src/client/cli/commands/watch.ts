import type { AgentRun } from '../../agent-run';
import type { CliCommand, CommandContext } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { formatEvent } from '../format-event';

/** Print every event until the run ends; exit code 0 when it completed or stopped at the limit. */
export async function followRun(ctx: CommandContext, run: AgentRun): Promise<number> {
  let status = 'running';
  for await (const event of run.events()) {
    if (ctx.json) printJson(ctx.output, event);
    else ctx.output.out(formatEvent(event, run.workflowId));
    if (event.type === 'run_finished') status = event.status;
  }
  return status === 'completed' || status === 'max_iterations' ? 0 : 1;
}

export const watchCommand: CliCommand = {
  name: 'watch',
  usage: 'watch ID [--json]',
  summary: 'Follow a run live: model calls, tool calls, approvals, the final answer.',
  options: {},
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const client = await ctx.connect();
    const run = client.get(id);
    if (!ctx.json) ctx.output.out(`Watching ${id} — ${run.webUiUrl}`);
    return followRun(ctx, run);
  },
};
