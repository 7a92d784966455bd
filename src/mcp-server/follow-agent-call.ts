import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { formatEvent, formatSubAgentEvent } from '../text/format-event';
import { ApprovalAsks } from './approval-asks';
import type { Elicit } from './approval-elicitation';
import { runResult } from './run-result';
import { TASK_POLL_INTERVAL_MS } from './run-task';
import { TEXT_MARGIN, TextProgress } from './text-progress';

export interface FollowOptions {
  /** Progress notifications for the client's progress token; absent when it sent none (or for a task's run). */
  progress?: (progress: number, message: string) => Promise<void>;
  /** A message for the client's user (a logging notification): what became of an approval answer that was not taken. */
  log?: (message: string) => Promise<void>;
  /** Present when the client can answer elicitations. */
  elicit?: Elicit;
  /** Stops following; open approval forms are withdrawn. */
  signal: AbortSignal;
}

/**
 * A tool call without a task: follows the run's stream to its end, reporting as progress each
 * event (its sub-agents' indented below) and the model's text line by line as it is written (a
 * call made again after its worker died is said so, and its text starts over), and asks the
 * client's user about every approval (its own calls and its sub-agents'), then answers with the
 * run's result, followed by a note for each approval answer that was not taken. The run does not
 * depend on this call: a client that goes away leaves it running, to be read with run_state or
 * answered with approve_call.
 */
export async function followAgentCall(client: AgentClient, run: AgentRun, options: FollowOptions): Promise<CallToolResult> {
  let count = 0;
  const progress = async (message: string) => {
    count += 1;
    await options.progress?.(count, message).catch(() => undefined);
  };
  const asks = options.elicit
    ? new ApprovalAsks(options.elicit, async (text) => {
        await progress(text);
        await options.log?.(text);
      })
    : undefined;
  const written = new TextProgress();
  const note = async (depth: number, lines: string[], margin = TEXT_MARGIN) => {
    for (const line of lines) await progress(`${'    '.repeat(depth)}${margin}${line}`);
  };
  try {
    for await (const item of run.stream({ eventsPollMs: TASK_POLL_INTERVAL_MS / 4, signal: options.signal })) {
      if (item.type === 'text_delta') {
        await note(item.depth, written.add(`${item.workflowId} ${item.iteration}`, item.text));
        continue;
      }
      if (item.type === 'model_call_restarted') {
        await note(item.depth, written.end(`${item.workflowId} ${item.iteration}`));
        await note(item.depth, [`the model call is made again (attempt ${item.attempt}); its text starts over`], '         ↻ ');
        continue;
      }
      if (item.type === 'model_quota_wait') {
        await note(item.depth, [item.text], '         ⧗ ');
        continue;
      }
      if (item.type !== 'event') continue;
      const { event } = item;
      const holder = item.workflowId;
      if (event.type === 'model_call_finished' || event.type === 'model_call_interrupted') await note(item.depth, written.end(`${item.workflowId} ${event.iteration}`));
      await progress(item.depth > 0 ? formatSubAgentEvent(item) : formatEvent(event, run.workflowId));
      if (event.type === 'permission_requested') {
        asks?.ask(holder === run.workflowId ? run : client.get(holder), {
          runId: holder,
          callId: event.callId,
          tool: event.tool,
          input: event.input,
          reason: event.reason,
          ...(event.rulesVersion !== undefined ? { rulesVersion: event.rulesVersion } : {}),
        });
      } else if (event.type === 'permission_decided') {
        asks?.decided(holder, event);
      }
    }
  } finally {
    await asks?.close(options.signal.aborted ? 'the tool call ended' : 'the run ended');
  }
  const notes = (asks?.notes ?? []).map((text) => ({ type: 'text' as const, text }));
  const result: CallToolResult = options.signal.aborted
    ? { content: [{ type: 'text', text: `The call was cancelled; run ${run.workflowId} goes on.` }], isError: true }
    : await runResult(run);
  return notes.length > 0 ? { ...result, content: [...result.content, ...notes] } : result;
}
