import { approversText } from '../common/approvals';

type Progress = { approvers?: readonly string[]; reminded?: number; escalated?: true; delegatedBy?: string };

function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/** Who may answer a waiting approval and what happened while it waits: "approvers: alice · reminded twice · escalated". */
export function approvalProgress(call: Progress): string | undefined {
  const parts = [
    ...(call.approvers ? [`approvers: ${approversText(call.approvers)}`] : []),
    ...(call.reminded ? [`reminded ${times(call.reminded)}`] : []),
    ...(call.escalated ? ['escalated'] : []),
    ...(call.delegatedBy ? [`handed on by ${call.delegatedBy}`] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : undefined;
}
