import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import {
  MODEL_QUOTA_WORKFLOW,
  modelQuotaWorkflowId,
  quotaPausedUntilQuery,
  quotaPauseSignal,
  quotaUsedSignal,
  reserveQuotaUpdate,
  type ModelLimits,
} from '../common/model-limits';
import type { ModelQuotaPort, QuotaPermit } from '../common/contracts/model-quota';

/** A 429 without retry-after pauses the model's calls this long. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 5_000;
/** How often a waiting call tells its follower (through its heartbeat) what it waits for. */
const WAIT_NOTE_MS = 5_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

function describeLimits(limits: ModelLimits): string {
  const parts = [
    ...(limits.requestsPerMinute !== undefined ? [`${limits.requestsPerMinute} requests`] : []),
    ...(limits.tokensPerMinute !== undefined ? [`${limits.tokensPerMinute} tokens`] : []),
  ];
  return `${parts.join(' and ')} per minute`;
}

/**
 * The fleet-wide quota of the worker's rate-limited models, kept by one quota workflow per model
 * on the worker's task queue: each call asks it (update-with-start) for its start time and waits
 * until then, so however many workers call a model, together they keep its limits.
 */
export class ModelQuota implements ModelQuotaPort {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly limits: Record<string, ModelLimits>,
    private readonly defaultModel: string,
  ) {}

  async take(model: string, tokens: number, options: { signal: AbortSignal; onWaiting: (text: string) => void }): Promise<QuotaPermit | undefined> {
    const name = model || this.defaultModel;
    const limits = Object.prototype.hasOwnProperty.call(this.limits, name) ? this.limits[name] : undefined;
    if (!limits) return undefined;
    const workflowId = modelQuotaWorkflowId(this.taskQueue, name);
    for (;;) {
      const grant = await this.client.workflow.executeUpdateWithStart(reserveQuotaUpdate, {
        args: [{ tokens, limits }],
        startWorkflowOperation: new WithStartWorkflowOperation(MODEL_QUOTA_WORKFLOW, {
          workflowId,
          taskQueue: this.taskQueue,
          args: [{ model: name }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          staticSummary: `the fleet's quota of model ${name}: ${describeLimits(limits)}`,
        }),
      });
      let waited = false;
      for (let left = grant.at - Date.now(); left > 0; left = grant.at - Date.now()) {
        waited = true;
        options.onWaiting(`waiting for model quota: ${name} (${describeLimits(limits)} across the fleet), ${grant.ahead} call(s) ahead, starts in ${Math.ceil(left / 1000)} s`);
        await sleep(Math.min(left, WAIT_NOTE_MS), options.signal);
      }
      // A 429 seen by another worker while this call waited pauses it too: it asks again.
      if (waited && (await this.client.workflow.getHandle(workflowId).query(quotaPausedUntilQuery)) > Date.now()) continue;
      return this.permit(workflowId, grant.at, tokens);
    }
  }

  private permit(workflowId: string, at: number, estimated: number): QuotaPermit {
    const handle = this.client.workflow.getHandle(workflowId);
    // Reports are best effort: a lost one leaves the estimate counted, or no pause.
    const send = (sent: Promise<void>) => sent.catch(() => undefined);
    return {
      used: (used) => void send(handle.signal(quotaUsedSignal, { at, estimated, used })),
      rateLimited: (retryAfterMs) => void send(handle.signal(quotaPauseSignal, { until: Date.now() + (retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS) })),
    };
  }
}
