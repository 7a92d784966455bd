import type { AgentRun } from '../../client/agent-run';
import type { CliCommand, CommandContext } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { describeRunFailure } from '../../client/run-failure';
import { formatEvent, formatSubAgentEvent } from '../../text/format-event';
import { StreamedLines, TEXT_MARGIN } from '../stream-text';

/**
 * Print the run's stream until the run ends, with its sub-agents' steps indented below their
 * start; exit code 0 when it completed or stopped at the limit. The text of a streaming model call
 * is printed line by line as it is written (`│`); with `--json` each stream item is a line: events
 * as they are (sub-agents' as `{"type":"subagent_event",workflowId,depth,event}`), and
 * `{"type":"text_delta"|"tool_call_delta"|"model_call_restarted",…}` items, told apart from events by
 * their missing `seq`. `--events-only` leaves the deltas out, `--top-only` the sub-agents.
 */
export async function followRun(ctx: CommandContext, run: AgentRun): Promise<number> {
  let status = 'running';
  const deltas = ctx.values['events-only'] !== true;
  const subAgents = ctx.values['top-only'] !== true;
  const lines = new StreamedLines();
  const printText = (depth: number, text: string[]) => {
    for (const line of text) ctx.output.out(`${'    '.repeat(depth)}${TEXT_MARGIN}${line}`);
  };
  for await (const item of run.stream()) {
    if (item.depth > 0 && !subAgents) continue;
    const key = `${item.workflowId} ${item.type === 'event' ? '' : item.iteration}`;
    if (item.type === 'event') {
      const { event } = item;
      if (event.type === 'model_call_finished' || event.type === 'model_call_interrupted') printText(item.depth, ctx.json ? [] : lines.end(`${item.workflowId} ${event.iteration}`));
      if (item.depth > 0) {
        const update = { type: 'subagent_event' as const, workflowId: item.workflowId, depth: item.depth, event };
        if (ctx.json) printJson(ctx.output, update);
        else ctx.output.out(formatSubAgentEvent(update, ctx.output.style));
        continue;
      }
      if (ctx.json) printJson(ctx.output, event);
      else ctx.output.out(formatEvent(event, run.workflowId, ctx.output.style));
      if (event.type === 'run_finished') status = event.status;
      continue;
    }
    if (!deltas) continue;
    const { cursor: _cursor, ...delta } = item;
    if (ctx.json) {
      printJson(ctx.output, delta);
    } else if (item.type === 'text_delta') {
      printText(item.depth, lines.add(key, item.text));
    } else if (item.type === 'model_quota_wait') {
      ctx.output.out(`${'    '.repeat(item.depth)}         ⧗ ${item.text}`);
    } else if (item.type === 'model_call_restarted') {
      printText(item.depth, lines.end(key));
      ctx.output.out(`${'    '.repeat(item.depth)}         ↻ the model call is made again (attempt ${item.attempt}); its text starts over`);
    }
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
  return status === 'completed' || status === 'max_iterations' || status === 'budget_exhausted' ? 0 : 1;
}

export const watchCommand: CliCommand = {
  name: 'watch',
  usage: 'watch ID [--events-only] [--top-only] [--json]',
  summary:
    'Follow a run live: model calls, the text of a streaming model call line by line as it is written, tool calls, approvals, ' +
    "sub-agents' steps (indented), the final answer. --json prints one event per line, plus text_delta, tool_call_delta and " +
    'model_call_restarted lines (no seq) unless --events-only, and {"type":"subagent_event",workflowId,depth,event} lines unless --top-only.',
  options: {
    'events-only': { type: 'boolean', description: 'leave out the text and tool-call deltas of streaming model calls' },
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
