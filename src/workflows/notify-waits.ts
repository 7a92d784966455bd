import { log, workflowInfo } from '@temporalio/workflow';
import type { WaitNotice } from '../common/contracts/wait-notice';
import { RUNTIME_FEATURES } from '../common/runtime-features';
import { activities } from './activities-proxy';
import { nowIso } from './clock';
import type { RunState } from './run-state';

/**
 * Tells the worker's webhooks about a call (see activities/notify-wait.ts), only in runs whose
 * description names the feature (a worker with webhooks described them). The activity is started
 * and not awaited: a receiver that is down is retried with backoff for up to an hour meanwhile,
 * and a give-up is logged, never the run's failure.
 */
export function notifyWait(state: RunState, notice: Omit<WaitNotice, 'workflowId' | 'agent' | 'at'>): void {
  if (!state.descriptor.runtimeFeatures?.includes(RUNTIME_FEATURES.notifyWaits)) return;
  const full: WaitNotice = { ...notice, workflowId: workflowInfo().workflowId, agent: state.agent, at: nowIso() };
  activities.notifyWait
    .executeWithOptions(
      {
        summary: `notify: ${notice.tool} ${notice.event}`,
        startToCloseTimeout: '30s',
        scheduleToCloseTimeout: '1h',
        retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
      },
      [full],
    )
    .catch((error: Error) => log.warn(`Webhooks not told that ${notice.callId} is ${notice.event}: ${error.message}`));
}
