import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { permissionDecided } from '../../telemetry/permission-decided';
import { countApprovalWait } from '../../telemetry/run-metrics';
import { nowIso } from '../platform';
import { recordEvent } from '../effects';
import { notifyWait } from '../effects';
import { rejectInput } from '../input';
import type { RunState } from '../state';
import { setStatus } from '../effects';
import type { CallChange } from './change';
import { publishWaits } from './publish-waits';
import { showOwnWaits, showSubAgentWaits } from './show-waits';

/**
 * The one place that acts on what a call's transition did, always in this order: the rejected
 * inputs and the events; the run's status and the Web UI's details; what waits, published in the
 * memo; the webhooks' notices; the metrics and the trace. Recorded runs replay the commands these
 * make (search attributes, memo, notification activities) in this order, so it does not change;
 * runs described before `ordered-call-effects` replay their own (see CallChange.noticesFirstInOlderRuns).
 */
export function applyChange(state: RunState, change: CallChange): void {
  for (const rejected of change.rejected ?? []) rejectInput(state, rejected.handler, rejected.reason, rejected.callId);
  for (const body of change.events ?? []) recordEvent(state, body, nowIso());
  const noticesFirst = change.noticesFirstInOlderRuns === true && !hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.orderedCallEffects);
  if (noticesFirst) sendNotices(state, change);
  if (change.status) setStatus(state, change.status);
  if (change.waitsChanged) showOwnWaits(state);
  if (change.subAgentWaitsChanged) showSubAgentWaits(state);
  if (change.status || change.waitsChanged || change.subAgentWaitsChanged) publishWaits(state);
  if (!noticesFirst) sendNotices(state, change);
  for (const decision of change.decisions ?? []) permissionDecided(decision, decision.behavior, decision.by, decision.reason);
  if (change.approvalWaits) countApprovalWait(state.agent, change.approvalWaits);
}

function sendNotices(state: RunState, change: CallChange): void {
  for (const notice of change.notices ?? []) notifyWait(state, notice);
}
