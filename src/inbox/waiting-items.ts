import { findWaitingRuns, WAITING_STATE_TIMEOUT_MS, type UnreadableRun } from '../client/find-waiting-runs';
import type { AgentClient } from '../client/agent-client';
import type { PendingCall } from '../common/run';

/** One call that waits for a person, as the inbox lists it. */
export interface WaitingItem {
  /** The topmost run: answers are sent to it, and it passes them to a sub-agent that holds the call. */
  runId: string;
  /** The run that holds the call (the top run itself, or a sub-agent's run at any depth). */
  holderId: string;
  /** The agent that made the call; `topAgent` is the one the person started. */
  agent: string;
  topAgent: string;
  startedBy?: string;
  callId: string;
  tool: string;
  kind: PendingCall['kind'];
  input: unknown;
  reason?: string;
  suggestedRule?: string;
  since: string;
}

export interface WaitingList {
  items: WaitingItem[];
  unreadable: UnreadableRun[];
}

/** Every waiting call across runs, conversations and sub-agents, newest first; `scope` is a visibility query that narrows the runs. */
export async function listWaitingItems(client: AgentClient, scope?: string): Promise<WaitingList> {
  const found = await findWaitingRuns(client, WAITING_STATE_TIMEOUT_MS, scope);
  const items = found.runs.flatMap((run) =>
    run.pending.map(
      (call): WaitingItem => ({
        runId: run.workflowId,
        holderId: call.workflowId ?? run.workflowId,
        agent: call.agent ?? run.agent,
        topAgent: run.agent,
        ...(run.startedBy !== undefined ? { startedBy: run.startedBy } : {}),
        callId: call.callId,
        tool: call.tool,
        kind: call.kind,
        input: call.input,
        ...(call.decision?.reason ? { reason: call.decision.reason } : {}),
        ...(call.decision?.suggestedRule ? { suggestedRule: call.decision.suggestedRule } : {}),
        since: call.since,
      }),
    ),
  );
  items.sort((a, b) => b.since.localeCompare(a.since));
  return { items, unreadable: found.unreadable };
}

/** The item's address in the inbox: the holder's id and the call id. */
export function itemPath(item: Pick<WaitingItem, 'holderId' | 'callId'>): string {
  return `/calls/${encodeURIComponent(item.holderId)}/${encodeURIComponent(item.callId)}`;
}

export function itemKey(item: Pick<WaitingItem, 'holderId' | 'callId'>): string {
  return `${item.holderId}/${item.callId}`;
}
