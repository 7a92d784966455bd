import type { PendingCall, RunStatus } from '../common/run';
import type { AgentClient } from './agent-client';

export interface WaitingRun {
  workflowId: string;
  agent: string;
  status: RunStatus;
  pending: PendingCall[];
}

/**
 * Every open run that waits for a person (through visibility), with its waiting calls. A
 * sub-agent's call shows in its own run and in every run above it: it is listed once, under the
 * topmost (parents' ids are prefixes of their children's). A run whose state cannot be read is
 * reported to `onUnreadable` and left out, so it does not hide the others.
 */
export async function findWaitingRuns(client: AgentClient, onUnreadable: (workflowId: string, error: Error) => void): Promise<WaitingRun[]> {
  const ids = (await client.list({ query: `AgentStatus = 'awaiting_approval' OR AgentStatus = 'awaiting_external'`, limit: 100 }))
    .filter((run) => run.temporalStatus === 'RUNNING')
    .map((run) => run.workflowId)
    .sort((a, b) => a.length - b.length);
  const listed = new Set<string>();
  const runs: WaitingRun[] = [];
  for (const id of ids) {
    try {
      const state = await client.get(id).state();
      const key = (call: PendingCall) => `${call.workflowId ?? id}/${call.callId}`;
      const pending = state.pending.filter((call) => !listed.has(key(call)));
      for (const call of pending) listed.add(key(call));
      if (pending.length > 0) runs.push({ workflowId: id, agent: state.agent, status: state.status, pending });
    } catch (error) {
      onUnreadable(id, error as Error);
    }
  }
  return runs;
}
