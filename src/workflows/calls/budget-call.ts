import type { Spend } from '../../common/budget';
import type { AgentEventBody } from '../../common/events';
import type { ToolCallRecord } from '../../common/tool-call-record';
import { nowIso } from '../platform';
import { decidedEvent } from './approval';
import type { CallChange } from './change';
import { answeredNotice, waitingNotice } from './notices';
import { move } from './phases';

/**
 * The budget's call: when the next model call would pass the run's budget, the run makes a call of
 * its own (tool `$budget`, input: the amounts to allow) that waits for a person's approval like
 * any ASK — the same `permission_requested` and `permission_decided` events, notices and views —
 * so every surface that answers approvals answers it. Approving allows the amounts (as the person
 * edited them); denying, or no answer in time, ends the run. The budget's own figures are in the
 * `budget_reached` and `budget_raised` events.
 */

export interface BudgetAsk {
  /** The `budget_reached` event, which names the call. */
  reached: Extract<AgentEventBody, { type: 'budget_reached' }> & { callId: string; more: Spend };
  /** What the person is asked, in words. */
  question: string;
}

export type BudgetAnswer = { outcome: 'approved'; allowed: Spend; answeredBy?: string } | { outcome: 'denied' | 'timed_out'; answeredBy?: string; reason?: string };

/** The call starts waiting: the budget's event and the call's, the person's notice, the run's status. */
export function askForMore(record: ToolCallRecord, ask: BudgetAsk): CallChange {
  const more = ask.reached.more;
  const target = move(record, 'ask', { name: 'awaiting_approval' });
  Object.assign(target, { input: more, permission: { behavior: 'ask', reason: ask.question, rememberable: false }, askedAt: nowIso() });
  const early = record.answer !== undefined;
  return {
    events: [ask.reached, { type: 'permission_requested', callId: record.callId, tool: record.tool, input: more, reason: ask.question }],
    status: 'awaiting_approval',
    waitsChanged: true,
    notices: early ? [] : [waitingNotice(record, 'approval', more, ask.question)],
    approvalWaits: 1,
  };
}

/**
 * The wait ended: the answer (edited amounts count), and the call settled. `raise` applies an
 * approval to the run's budget and gives what it allowed and the limit now, for `budget_raised`.
 */
export function endBudgetWait(
  record: ToolCallRecord,
  timeout: unknown,
  decidedEarly: boolean,
  raise: (allowed: Spend) => { allowed: Spend; limit: Spend },
): { answer: BudgetAnswer; change: CallChange } {
  const decision = record.answer;
  const answeredBy = decision?.answeredBy !== undefined ? { answeredBy: decision.answeredBy } : {};
  const events: AgentEventBody[] = decidedEarly || !decision ? [decidedEvent(record, timeout)] : [];
  let answer: BudgetAnswer;
  if (decision?.approved) {
    move(record, 'approve', { name: 'queued' });
    const { allowed, limit } = raise((decision.input ?? record.input ?? {}) as Spend);
    answer = { outcome: 'approved', allowed, ...answeredBy };
    events.push({ type: 'budget_raised', callId: record.callId, allowed, limit, ...answeredBy });
  } else {
    move(record, 'refuse', { name: 'settled', state: 'denied' });
    answer = decision ? { outcome: 'denied', ...answeredBy, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) } : { outcome: 'timed_out' };
  }
  return {
    answer,
    change: {
      events,
      status: 'running',
      waitsChanged: true,
      ...(decision ? {} : { notices: [answeredNotice(record, 'approval', { outcome: 'timed_out' })] }),
    },
  };
}

/** Whether a record is a budget's call (its answers are amounts, checked by the run itself). */
export function isBudgetCall(record: Pick<ToolCallRecord, 'kind'> | undefined): boolean {
  return record?.kind === 'budget';
}
