import { proxyActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/create-activities';

/** Typed activity stubs; every call site passes its own options through `executeWithOptions`. */
export const activities = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});
