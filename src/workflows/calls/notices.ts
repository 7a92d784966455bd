import type { CallAnswer, ToolCallRecord, WaitKind } from '../../common/tool-call-record';
import type { NoticeBody } from './change';

/** A call started waiting: the notice the webhooks get (arguments included; the worker drops them for webhooks that do not ask). */
export function waitingNotice(record: ToolCallRecord, kind: WaitKind, input: unknown, reason?: string): NoticeBody {
  return {
    event: 'waiting',
    callId: record.callId,
    tool: record.tool,
    kind,
    input,
    ...(reason !== undefined ? { reason } : {}),
    ...(record.approvers ? { approvers: [...record.approvers] } : {}),
  };
}

/** The call still waits, and its approvers are told again: a reminder, an escalation, a delegation. */
export function stillWaitingNotice(record: ToolCallRecord, event: 'reminded' | 'escalated' | 'delegated', told: readonly string[] | undefined): NoticeBody {
  return {
    event,
    callId: record.callId,
    tool: record.tool,
    kind: 'approval',
    input: record.input,
    ...(record.permission?.reason !== undefined ? { reason: record.permission.reason } : {}),
    ...(told ? { approvers: [...told] } : {}),
    ...(event === 'reminded' ? { reminder: record.reminded ?? 1 } : {}),
    ...(event === 'delegated' && record.delegatedBy !== undefined ? { delegatedBy: record.delegatedBy } : {}),
  };
}

/** A call stopped waiting, and how. */
export function answeredNotice(record: ToolCallRecord, kind: WaitKind, answer: Pick<CallAnswer, 'outcome' | 'answeredBy'>): NoticeBody {
  return {
    event: 'answered',
    callId: record.callId,
    tool: record.tool,
    kind,
    outcome: answer.outcome,
    ...(answer.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
  };
}
