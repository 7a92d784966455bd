import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { apply } from '../effects';
import type { Writing } from '../state';
import type { CallChange } from './change';
import { waitsToPublish } from './publish-waits';
import { ownWaitsShown, subAgentWaitsShown } from './show-waits';

/**
 * Acts on what a call's transition did, always in this order: the rejected inputs and the events;
 * the run's status and the Web UI's details; what waits, published in the memo; the webhooks'
 * notices; the metrics and the trace. Recorded runs replay the commands these make (search
 * attributes, memo, notification activities) in this order, so it does not change; runs described
 * before `ordered-call-effects` replay their own (see CallChange.noticesFirstInOlderRuns).
 */
export function applyChange(state: Writing<'calls'>, change: CallChange): void {
  const { waitsChanged, subAgentWaitsChanged, noticesFirstInOlderRuns, notices, decisions, approvalWaits, ...recorded } = change;
  const noticesFirst = noticesFirstInOlderRuns === true && !hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.orderedCallEffects);
  if (noticesFirst) {
    apply(state, { rejected: recorded.rejected, events: recorded.events, notices });
    apply(state, { status: recorded.status });
  } else apply(state, recorded);
  if (waitsChanged) apply(state, ownWaitsShown(state));
  if (subAgentWaitsChanged) apply(state, subAgentWaitsShown(state));
  if (recorded.status || waitsChanged || subAgentWaitsChanged) apply(state, waitsToPublish(state));
  apply(state, { ...(noticesFirst ? {} : { notices }), decisions, approvalWaits });
}
