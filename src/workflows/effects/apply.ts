import { log, upsertMemo } from '@temporalio/workflow';
import { WAITS_MEMO_KEY } from '../../common/contracts/published-waits';
import type { AgentEvent } from '../../common/events';
import { permissionDecided } from '../../telemetry/permission-decided';
import { countApprovalWait } from '../../telemetry/run-metrics';
import { nowIso } from '../platform';
import type { Writing } from '../state';
import type { Change } from './change';
import { preview, recordEvent } from './event-log';
import { notifyWait } from './notify-waits';
import { announceAgent, publishUsage, setStatus, setStep } from './status';

/**
 * The one place a run writes outward, always in this order: the rejected inputs and the events;
 * the status (and the attributes written with it), the agent's announcement; the Web UI's step;
 * the memo; the webhooks' notices; the metrics and the trace; the tokens. The commands these make
 * (search attributes, memo, notification activities) replay in this order, so it does not change:
 * code that needs another order applies two changes. Returns the events it recorded.
 */
export function apply(state: Writing<'progress'>, change: Change): AgentEvent[] {
  const at = nowIso();
  const recorded: AgentEvent[] = [];
  for (const { handler, reason, callId } of change.rejected ?? []) {
    const shown = preview(reason, 500);
    log.warn('Rejected input', { handler, reason: shown, ...(callId ? { callId } : {}) });
    recorded.push(recordEvent(state, { type: 'input_rejected', handler, reason: shown, ...(callId ? { callId } : {}) }, at));
  }
  for (const body of change.events ?? []) recorded.push(recordEvent(state, body, at));
  if (change.status) setStatus(state, change.status, change.attributes);
  if (change.announce) announceAgent(state);
  if (change.step) setStep(state, change.step.text, change.step.details);
  if (change.waits) upsertMemo({ [WAITS_MEMO_KEY]: change.waits });
  for (const notice of change.notices ?? []) notifyWait(state, notice);
  for (const decision of change.decisions ?? []) permissionDecided(decision, decision.behavior, decision.by, decision.reason);
  if (change.approvalWaits) countApprovalWait(state.agent, change.approvalWaits);
  if (change.tokens) publishUsage(state);
  return recorded;
}
