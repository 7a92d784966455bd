import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { formatEvent, formatSubAgentEvent } from '../client/cli/format-event';
import { elicitApproval, type Elicit } from './approval-elicitation';
import { runResult } from './run-result';
import { TASK_POLL_INTERVAL_MS } from './run-task';

export interface FollowOptions {
  /** Progress notifications for the client's progress token; absent when it sent none (or for a task's run). */
  progress?: (progress: number, message: string) => Promise<void>;
  /** Present when the client can answer elicitations. */
  elicit?: Elicit;
  signal: AbortSignal;
}

/**
 * A tool call without a task: follows the run to its end, reporting each event as progress, and
 * asks the client's user about every approval (its own calls and its sub-agents'), then answers
 * with the run's result. The run does not depend on this call: a client that goes away leaves it
 * running, to be read with run_state or answered with approve_call.
 */
export async function followAgentCall(client: AgentClient, run: AgentRun, options: FollowOptions): Promise<CallToolResult> {
  const asked = new Set<string>();
  let count = 0;
  for await (const update of run.updates({ partialText: false, subAgents: true, intervalMs: TASK_POLL_INTERVAL_MS / 4, signal: options.signal })) {
    if (update.type === 'partial_text') continue;
    const event = update.type === 'subagent_event' ? update.event : update;
    const holder = update.type === 'subagent_event' ? update.workflowId : run.workflowId;
    count += 1;
    await options.progress?.(count, update.type === 'subagent_event' ? formatSubAgentEvent(update) : formatEvent(update, run.workflowId));
    if (event.type !== 'permission_requested' || !options.elicit || asked.has(`${holder}/${event.callId}`)) continue;
    asked.add(`${holder}/${event.callId}`);
    await elicitApproval(holder === run.workflowId ? run : client.get(holder), { runId: holder, callId: event.callId, tool: event.tool, input: event.input, reason: event.reason }, options.elicit);
  }
  if (options.signal.aborted) return { content: [{ type: 'text', text: `The call was cancelled; run ${run.workflowId} goes on.` }], isError: true };
  return runResult(run);
}
