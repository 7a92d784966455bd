import { settingsForTool } from '../../common/approvals';
import { durationMs } from '../../common/duration';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { Writing } from '../state';

/** What falls due while a batch waits for approvals: each call's reminders and escalation, counted from its ask. */
export interface DueStep {
  at: number;
  callId: string;
  step: { kind: 'remind' } | { kind: 'escalate'; to: string[] };
}

/** The batch's reminders and escalations in the order they fall due (before `end`, the approval timeout, when there is one). */
export function dueSteps(state: Writing<'calls'>, records: readonly ToolCallRecord[], end: number | undefined): DueStep[] {
  const steps: DueStep[] = [];
  for (const record of records) {
    if (record.answer || record.askedAt === undefined) continue;
    const asked = Date.parse(record.askedAt);
    const settings = settingsForTool(state.descriptor.approvals, record.tool);
    for (const after of settings.remind ?? []) {
      const ms = durationMs(after);
      if (ms !== undefined) steps.push({ at: asked + ms, callId: record.callId, step: { kind: 'remind' } });
    }
    const escalation = settings.escalate;
    const ms = escalation ? durationMs(escalation.after) : undefined;
    if (escalation && ms !== undefined) steps.push({ at: asked + ms, callId: record.callId, step: { kind: 'escalate', to: escalation.to } });
  }
  // Stable: at the same time, reminders before the escalation, calls in batch order.
  return steps.filter((due) => end === undefined || due.at < end).sort((a, b) => a.at - b.at);
}
