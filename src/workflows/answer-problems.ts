import { answeredBefore, recordOf } from './call-records';
import type { RunState } from './run-state';

/**
 * Why a decision for `callId` cannot be taken, or undefined when it can. Signals (`early`), which
 * cannot answer back, may decide a call that is still being checked or not seen yet: the answer
 * is kept until the call asks. Updates answer only a call that waits for approval now.
 */
export function approvalProblem(state: RunState, callId: string, early = false): string | undefined {
  const record = recordOf(state, callId);
  const decided = `tool call '${callId}' was already decided`;
  if (!early && isUnseen(state, callId)) return `no tool call '${callId}' is waiting for approval`;
  if (record?.answer || record?.phase.name === 'settled' || (!record && answeredBefore(state, callId))) return decided;
  switch (record?.phase.name) {
    case 'awaiting_approval':
      return undefined;
    case 'awaiting_external':
      return `tool call '${callId}' waits for an external result, not an approval: submit its result instead`;
    case 'checking':
      return early ? undefined : `tool call '${callId}' is still being checked; it is not waiting for approval (yet)`;
    case 'queued':
    case 'running':
    case 'in_sub_agent':
      return record.askedAt !== undefined ? decided : `tool call '${callId}' needs no approval: the rules already decided it`;
    default:
      return early ? undefined : `no tool call '${callId}' is waiting for approval`;
  }
}

export function submissionProblem(state: RunState, callId: string, early = false): string | undefined {
  const record = recordOf(state, callId);
  if (!early && isUnseen(state, callId)) return `no tool call '${callId}' is waiting for an external result`;
  if (record?.submission || record?.phase.name === 'settled' || (!record && answeredBefore(state, callId))) {
    return `a result for tool call '${callId}' was already submitted`;
  }
  switch (record?.phase.name) {
    case 'awaiting_external':
      return undefined;
    case 'awaiting_approval':
      return `tool call '${callId}' waits for approval, not an external result: approve or deny it instead`;
    case 'queued':
    case 'running':
    case 'in_sub_agent':
      // A running tool may still suspend and ask for its result; a signal's answer is kept for that.
      return early ? undefined : `tool call '${callId}' is running on a worker and has not asked for an external result`;
    case 'checking':
      return early ? undefined : `tool call '${callId}' is still being checked; it is not waiting for an external result (yet)`;
    default:
      return early ? undefined : `no tool call '${callId}' is waiting for an external result`;
  }
}

/** No record of the call in this batch, and no result of it before: an answer for it arrived early. */
export function isUnseen(state: RunState, callId: string): boolean {
  const record = recordOf(state, callId);
  return record ? record.phase.name === 'unseen' : !answeredBefore(state, callId);
}
