import { isPayloadDecryptionError } from '../codec/payload-decryption-error';
import type { AgentRunState, PendingCall, RunStatus } from '../common/run';
import type { AgentClient } from './agent-client';

export interface WaitingRun {
  workflowId: string;
  agent: string;
  status: RunStatus;
  pending: PendingCall[];
  /** The user id it was started with, when it had one. */
  startedBy?: string;
}

/**
 * Why a run that visibility lists as waiting could not be read: its state cannot be decrypted here
 * (no keys, or not its key), no worker answered the state query in time, or another error.
 */
export type UnreadableReason = 'undecryptable' | 'no_answer' | 'error';

/** A run visibility lists as waiting whose calls are unknown: its agent and status as visibility has them. */
export interface UnreadableRun {
  workflowId: string;
  agent?: string;
  status?: string;
  unreadable: { reason: UnreadableReason; message: string };
}

export interface WaitingRuns {
  runs: WaitingRun[];
  unreadable: UnreadableRun[];
}

/** How long a run's workers get to answer its state query. */
export const WAITING_STATE_TIMEOUT_MS = 5_000;

const GRPC_CANCELLED = 1;
const GRPC_DEADLINE_EXCEEDED = 4;
/** How much earlier than the client the server may see the deadline (it is sent as time remaining). */
const DEADLINE_SLACK_MS = 250;

/**
 * A query that outlives its deadline ends as DEADLINE_EXCEEDED when the client's timer fires first,
 * or as CANCELLED when the server's copy of the deadline fires first and it resets the stream. The
 * query carries no abort signal, so a CANCELLED at the deadline can only be that.
 */
function ranOutOfTime(code: number | undefined, deadline: number): boolean {
  return code === GRPC_DEADLINE_EXCEEDED || (code === GRPC_CANCELLED && Date.now() >= deadline - DEADLINE_SLACK_MS);
}

/** Why a state query with this deadline failed, in the words `pending` and list_pending print. */
export function unreadableBecause(error: unknown, timeoutMs: number, deadline: number): UnreadableRun['unreadable'] {
  const { message, cause } = error as Error & { cause?: { code?: number; message?: string } };
  if (isPayloadDecryptionError(error)) return { reason: 'undecryptable', message };
  if (ranOutOfTime(cause?.code, deadline)) return { reason: 'no_answer', message: `no worker answered its state query within ${timeoutMs / 1000} s` };
  // The server's own answer when no worker has polled the run's task queue for a while.
  if (cause?.message && /no poller seen/.test(cause.message)) return { reason: 'no_answer', message: cause.message };
  return { reason: 'error', message: cause?.message && !message.includes(cause.message) ? `${message}: ${cause.message}` : message };
}

/**
 * Every open run that waits for a person (through visibility), with its waiting calls. A
 * sub-agent's call shows in its own run and in every run above it: it is listed once, under the
 * topmost (parents' ids are prefixes of their children's). A run whose state cannot be read is
 * returned apart with the reason, so it neither hides the others nor goes unmentioned (unless a run
 * above it listed its calls). `scope`, a visibility query, narrows the runs (e.g. to one task queue).
 */
export async function findWaitingRuns(client: AgentClient, timeoutMs = WAITING_STATE_TIMEOUT_MS, scope?: string): Promise<WaitingRuns> {
  const waiting = `AgentStatus = 'awaiting_approval' OR AgentStatus = 'awaiting_external'`;
  const listed = (await client.list({ query: scope ? `(${waiting}) AND (${scope})` : waiting, limit: 100 }))
    .filter((run) => run.temporalStatus === 'RUNNING')
    .sort((a, b) => a.workflowId.length - b.workflowId.length);
  const answers = await Promise.all(
    listed.map((run) => {
      const deadline = Date.now() + timeoutMs;
      return client.client.withDeadline(deadline, () => client.get(run.workflowId).state()).then(
        (state): { state: AgentRunState } => ({ state }),
        (error: unknown) => ({ unreadable: unreadableBecause(error, timeoutMs, deadline) }),
      );
    }),
  );
  const seen = new Set<string>();
  /** Sub-agent runs whose calls a run above them listed. */
  const holders = new Set<string>();
  const result: WaitingRuns = { runs: [], unreadable: [] };
  listed.forEach(({ workflowId, agent, status }, index) => {
    const answer = answers[index]!;
    if ('unreadable' in answer) {
      if (!holders.has(workflowId)) result.unreadable.push({ workflowId, ...(agent ? { agent } : {}), ...(status ? { status } : {}), unreadable: answer.unreadable });
      return;
    }
    const key = (call: PendingCall) => `${call.workflowId ?? workflowId}/${call.callId}`;
    const pending = answer.state.pending.filter((call) => !seen.has(key(call)));
    for (const call of pending) {
      seen.add(key(call));
      if (call.workflowId) holders.add(call.workflowId);
    }
    if (pending.length > 0) {
      const startedBy = answer.state.startedBy !== undefined ? { startedBy: answer.state.startedBy } : {};
      result.runs.push({ workflowId, agent: answer.state.agent, status: answer.state.status, pending, ...startedBy });
    }
  });
  return result;
}
