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
import { answerRulesOn } from './answer-rules';
import { dueSteps } from './reminder-schedule';
import { escalate, remind } from './still-waiting';
import { durationMs } from '../../common/duration';
import { nowMs } from '../platform';
import type { ToolCallRecord } from '../../common/tool-call-record';

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
    const answered = () => records.every((record) => record.answer);
    if (answerRulesOn(state)) await untilAnsweredWithReminders(state, records, answered, state.descriptor.approvalTimeout);
    else await untilAnswered(answered, state.descriptor.approvalTimeout);
  } finally {
    applyChange(state, { approvalWaits: -1 });
  }
  const { outcomes, change } = endApprovalWait(state, asks, decidedEarly);
  applyChange(state, change);
  return outcomes;
}

/**
 * The approvals' wait with the reminders and escalations of its calls: each a timer in history,
 * so a worker that takes the run over replays those already sent and sends only the next. The
 * approval timeout ends the wait as before.
 */
async function untilAnsweredWithReminders(state: Writing<'calls'>, records: readonly ToolCallRecord[], answered: () => boolean, timeout: Duration | undefined): Promise<void> {
  const timeoutMs = timeout === undefined ? undefined : durationMs(timeout);
  const end = timeoutMs === undefined ? undefined : nowMs() + timeoutMs;
  const steps = dueSteps(state, records, end);
  for (const due of steps) {
    if (answered()) return;
    const wait = due.at - nowMs();
    if (wait > 0 && (await condition(answered, wait))) return;
    const record = recordOf(state, due.callId);
    if (!record || record.answer || record.phase.name !== 'awaiting_approval') continue;
    applyChange(state, due.step.kind === 'remind' ? remind(record) : escalate(record, due.step.to));
  }
  if (end === undefined) await condition(answered);
  else if (end > nowMs()) await condition(answered, end - nowMs());
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
