import { condition } from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { ToolCallResult } from '../../common/contracts/tool-calls';
import type { Writing } from '../state';
import { applyChange } from './apply-change';
import { askApprovals, endApprovalWait, type AskCall, type GateOutcome } from './approval';
import { beginBudgetCall, endBatch, recordOf } from './book';
import { askForMore, endBudgetWait, type BudgetAnswer, type BudgetAsk } from './budget-call';
import type { Spend } from '../../common/budget';
import { endResultWait, resultWaitStarts } from './external';

/**
 * The run waits for answers from outside: nothing is held on a worker meanwhile, the wait is a
 * condition in history (with the agent's timeout as a timer when it has one).
 */
function untilAnswered(answered: () => boolean, timeout: Duration | undefined): Promise<unknown> {
  return timeout ? condition(answered, timeout) : condition(answered);
}

/** Parks the run until a person decided every ASK of the batch (or the agent's approval timeout passed). */
export async function awaitApprovals(state: Writing<'calls'>, asks: readonly AskCall[]): Promise<GateOutcome[]> {
  if (asks.length === 0) return [];
  const records = asks.map((ask) => recordOf(state, ask.callId)!);
  const decidedEarly = new Set(records.filter((record) => record.answer).map((record) => record.callId));
  applyChange(state, askApprovals(state, asks));
  try {
    await untilAnswered(() => records.every((record) => record.answer), state.descriptor.approvalTimeout);
  } finally {
    applyChange(state, { approvalWaits: -1 });
  }
  const { outcomes, change } = endApprovalWait(state, asks, decidedEarly);
  applyChange(state, change);
  return outcomes;
}

/** Waits for the result submitted for this call (or the agent's external timeout). */
export async function awaitExternalResult(state: Writing<'calls'>, callId: string): Promise<ToolCallResult> {
  const record = recordOf(state, callId)!;
  const arrived = () => record.submission !== undefined;
  const waited = !arrived();
  if (waited) applyChange(state, resultWaitStarts(record));
  await untilAnswered(arrived, state.descriptor.externalTimeout);
  const { result, change } = endResultWait(state, record, waited);
  applyChange(state, change);
  return result;
}

/**
 * Parks the run on its budget's call until a person answers it (or `timeout` passes); the call is
 * gone from the run's records afterwards. `raise` applies an approval to the run's budget.
 */
export async function awaitBudgetAnswer(
  state: Writing<'calls'>,
  ask: BudgetAsk,
  timeout: Duration | undefined,
  raise: (allowed: Spend) => { allowed: Spend; limit: Spend },
): Promise<BudgetAnswer> {
  const record = beginBudgetCall(state, ask.reached.callId);
  const decidedEarly = record.answer !== undefined;
  applyChange(state, askForMore(record, ask));
  try {
    await untilAnswered(() => record.answer !== undefined, timeout);
  } finally {
    applyChange(state, { approvalWaits: -1 });
  }
  const { answer, change } = endBudgetWait(record, timeout, decidedEarly, raise);
  applyChange(state, change);
  applyChange(state, endBatch(state, [record]));
  return answer;
}
