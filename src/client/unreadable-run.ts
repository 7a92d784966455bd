import { isPayloadDecryptionError } from '../codec/payload-decryption-error';

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
