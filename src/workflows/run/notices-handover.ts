import { CancellationScope, log, ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import type { WaitNotice } from '../../common/contracts/wait-notice';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { deliverHandedOver } from '../effects';
import type { RunState } from '../state';

/** Whether the run has notices to hand over (checked before awaiting anything, so runs without any end exactly as they were recorded). */
export function hasNoticesToHandOver(state: RunState): boolean {
  return state.noticesInFlight.length > 0 && hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.noticesOutliveRun);
}

/**
 * A run that ends (or continues as new) while notices are still being delivered — a receiver that
 * failed once is retried after a backoff, and most runs end right after their last answer — hands
 * them to a workflow of their own, which outlives it, instead of letting them go with it. Delivery
 * is at least once: a receiver that got one already may get it again (workflowId, callId and event
 * tell them apart).
 */
export async function handOverNotices(state: RunState): Promise<void> {
  const notices = [...state.noticesInFlight];
  const info = workflowInfo();
  await CancellationScope.nonCancellable(() =>
    startChild(noticesWorkflow, {
      workflowId: `${info.workflowId}/notices/${info.runId}`,
      args: [notices],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      staticSummary: `webhook notices of ${info.workflowId} (${notices.length})`,
    }),
  ).catch((error: Error) => log.warn(`Notices of this run could not be handed over: ${error.message}`));
}

/** Delivers notices a run handed over as it ended. */
export async function noticesWorkflow(notices: WaitNotice[]): Promise<void> {
  await deliverHandedOver(notices);
}
