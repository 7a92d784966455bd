import { log, workflowInfo } from '@temporalio/workflow';
import type { WaitNotice } from '../../common/contracts/wait-notice';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { activities, nowIso } from '../platform';
import type { Writing } from '../state';

/** How long a notice is tried for, in all; a give-up is logged, never the run's failure. */
export const NOTICE_DELIVERY_TIMEOUT = '1h';

/** Sends one notice through the notifyWait activity, retried with backoff until its hour is up. */
export function deliverNotice(notice: WaitNotice): Promise<void> {
  return activities.notifyWait.executeWithOptions(
    {
      summary: `notify: ${notice.tool} ${notice.event}`,
      startToCloseTimeout: '30s',
      scheduleToCloseTimeout: NOTICE_DELIVERY_TIMEOUT,
      retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
    },
    [notice],
  );
}

/**
 * Tells the worker's webhooks about a call (see activities/notify-wait.ts), only in runs whose
 * description names the feature (a worker with webhooks described them). The activity is started
 * and not awaited: a receiver that is down is retried meanwhile; a notice still being delivered
 * when the run ends is handed over (notices-handover.ts).
 */
export function notifyWait(state: Writing<'progress'>, notice: Omit<WaitNotice, 'workflowId' | 'agent' | 'at'>): void {
  if (!hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.notifyWaits)) return;
  const full: WaitNotice = { ...notice, workflowId: workflowInfo().workflowId, agent: state.agent, at: nowIso() };
  state.noticesInFlight.push(full);
  deliverNotice(full)
    .catch((error: Error) => log.warn(`Webhooks not told that ${notice.callId} is ${notice.event}: ${error.message}`))
    .finally(() => state.noticesInFlight.splice(state.noticesInFlight.indexOf(full), 1));
}

/** Delivers the notices a run handed over as it ended (see run/notices-handover.ts); a give-up is logged. */
export async function deliverHandedOver(notices: readonly WaitNotice[]): Promise<void> {
  await Promise.all(notices.map((notice) => deliverNotice(notice).catch((error: Error) => log.warn(`Webhooks not told that ${notice.callId} is ${notice.event}: ${error.message}`))));
}
