import type { ToolCallRecord } from '../../common/tool-call-record';
import type { CallChange } from './change';
import { move } from './phases';
import { stillWaitingNotice } from './notices';

/** What happens to a call while it waits for approval: its approvers reminded, the call escalated or handed on. */

/** A reminder fell due: the call's approvers are told again. */
export function remind(record: ToolCallRecord): CallChange {
  const target = move(record, 'remind', { name: 'awaiting_approval' });
  target.reminded = (record.reminded ?? 0) + 1;
  const approvers = record.approvers ? [...record.approvers] : undefined;
  return {
    events: [{ type: 'approval_reminded', callId: record.callId, tool: record.tool, reminder: target.reminded, ...(approvers ? { approvers } : {}) }],
    notices: [stillWaitingNotice(record, 'reminded', approvers)],
  };
}

/**
 * Nobody answered in time: `to` may answer too (beside the call's approvers; a call anyone may
 * answer stays so) and is told.
 */
export function escalate(record: ToolCallRecord, to: readonly string[]): CallChange {
  const target = move(record, 'escalate', { name: 'awaiting_approval' });
  target.escalated = true;
  if (record.approvers) target.approvers = [...record.approvers, ...to.filter((name) => !record.approvers!.includes(name))];
  const approvers = [...(record.approvers ?? to)];
  return {
    events: [{ type: 'approval_escalated', callId: record.callId, tool: record.tool, approvers }],
    notices: [stillWaitingNotice(record, 'escalated', approvers)],
    waitsChanged: true,
  };
}

/** An approver handed the call to `to`, who alone may answer it from now on. */
export function delegate(record: ToolCallRecord, to: readonly string[], delegatedBy: string | undefined, reason: string | undefined): CallChange {
  const target = move(record, 'delegate', { name: 'awaiting_approval' });
  target.approvers = [...to];
  if (delegatedBy !== undefined) target.delegatedBy = delegatedBy;
  return {
    events: [
      {
        type: 'approval_delegated',
        callId: record.callId,
        tool: record.tool,
        approvers: [...to],
        ...(delegatedBy !== undefined ? { delegatedBy } : {}),
        ...(reason !== undefined ? { reason } : {}),
      },
    ],
    notices: [stillWaitingNotice(record, 'delegated', to)],
    waitsChanged: true,
  };
}
