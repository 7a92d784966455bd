import type { AgentRun } from '../../client/agent-run';
import type { CliCommand, CommandContext } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { describeRunFailure } from '../../client/run-failure';
import { formatEvent, formatSubAgentEvent } from '../../text/format-event';

const MAX_PARTIAL_CHARS = 300;

/** The tail of the text so far, on one line. */
function partialLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_PARTIAL_CHARS ? `…${flat.slice(flat.length - MAX_PARTIAL_CHARS + 1)}` : flat;
}

/**
 * Print every event until the run ends, with its sub-agents' events indented below their start; exit code 0 when it completed or stopped at the limit.
 * While a streaming model call runs, its text so far is printed whenever it changed; with
 * `--json` that is a `{"type":"partial_text",model,iteration,text}` line, told apart from events
 * by its missing `seq`. `--events-only` leaves it out.
 */
export async function followRun(ctx: CommandContext, run: AgentRun): Promise<number> {
  let status = 'running';
  const partialText = ctx.values['events-only'] !== true;
  const subAgents = ctx.values['top-only'] !== true;
  for await (const update of run.updates({ partialText, subAgents })) {
    if (update.type === 'subagent_event') {
      if (ctx.json) printJson(ctx.output, update);
      else ctx.output.out(formatSubAgentEvent(update, ctx.output.style));
      continue;
    }
    if (update.type === 'partial_text') {
      if (ctx.json) printJson(ctx.output, update);
      else ctx.output.out(`         … model is writing: ${partialLine(update.text)}`);
      continue;
    }
    if (ctx.json) printJson(ctx.output, update);
    else ctx.output.out(formatEvent(update, run.workflowId, ctx.output.style));
    if (update.type === 'run_finished') status = update.status;
  }
  if (status === 'running') {
    // Closed without a final event (e.g. an agent no worker knows): the run's own failure says why.
    const failure = await run.result().then(
      () => undefined,
      (error: unknown) => describeRunFailure(run.workflowId, error),
    );
    if (failure === undefined) return 0;
    if (ctx.json) printJson(ctx.output, { type: 'run_failed', message: failure });
    else ctx.output.out(failure);
    return 1;
  }
  return status === 'completed' || status === 'max_iterations' ? 0 : 1;
}

export const watchCommand: CliCommand = {
  name: 'watch',
  usage: 'watch ID [--events-only] [--top-only] [--json]',
  summary:
    'Follow a run live: model calls, the text of a streaming model call as it is written, tool calls, approvals, ' +
    "sub-agents' steps (indented), the final answer. --json prints one event per line, plus {\"type\":\"partial_text\"} lines (no seq) " +
    'unless --events-only, and {"type":"subagent_event",workflowId,depth,event} lines unless --top-only.',
  options: {
    'events-only': { type: 'boolean', description: 'leave out the partial text of streaming model calls' },
    'top-only': { type: 'boolean', description: "leave out the sub-agents' events" },
  },
  examples: ['watch support-ab12cd34', 'watch support-ab12cd34 --json --events-only'],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const client = await ctx.connect();
    const run = client.get(id);
    if (!ctx.json) ctx.output.out(`Watching ${id} — ${run.webUiUrl}`);
    return followRun(ctx, run);
  },
};
