import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import pLimit from 'p-limit';
import {
  MODEL_QUOTA_WORKFLOW,
  modelQuotaWorkflowId,
  quotaPausedUntilQuery,
  quotaPauseSignal,
  quotaUsedSignal,
  reserveQuotaUpdate,
  type ModelLimits,
  type QuotaGrant,
} from '../common/model-limits';
import { QuotaWaitTooLong, type ModelQuotaPort, type QuotaPermit, type QuotaWaitOptions } from '../common/contracts/model-quota';

/** A 429 without retry-after pauses the model's calls this long. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 5_000;
/**
 * Requests for a grant this worker has in flight at once. Temporal takes at most 10 updates in
 * flight per workflow by default (history.maxInFlightUpdates): three workers of three each stay
 * under it, and a grant takes one short workflow task, so this is no bottleneck.
 */
const RESERVES_IN_FLIGHT = 3;
/** Tries for a grant when the server is busy with others' (in-flight update limit), with a growing, jittered pause. */
const RESERVE_TRIES = 8;
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

/** gRPC's RESOURCE_EXHAUSTED, ABORTED and UNAVAILABLE, as the client's errors carry them in `code`. */
const BUSY_CODES: ReadonlySet<number> = new Set([8, 10, 14]);

/** The server refused for load (in-flight updates, an update aborted by the workflow's continue-as-new): worth asking again. */
function isBusy(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (BUSY_CODES.has((cause as { code?: unknown }).code as number)) return true;
  }
  return false;
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
  private readonly gate = pLimit(RESERVES_IN_FLIGHT);

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly limits: Record<string, ModelLimits>,
    private readonly defaultModel: string,
  ) {}

  async take(model: string, tokens: number, options: QuotaWaitOptions): Promise<QuotaPermit | undefined> {
    const name = model || this.defaultModel;
    const limits = Object.prototype.hasOwnProperty.call(this.limits, name) ? this.limits[name] : undefined;
    if (!limits) return undefined;
    const workflowId = modelQuotaWorkflowId(this.taskQueue, name);
    let held = options.held;
    for (;;) {
      const grant = held ?? (await this.reserve(workflowId, name, tokens, limits, options.signal));
      held = undefined;
      let waited = false;
      for (let left = grant.at - Date.now(); left > 0; left = grant.at - Date.now()) {
        if (grant.at > options.until && Date.now() + WAIT_NOTE_MS > options.until) throw new QuotaWaitTooLong(grant);
        waited = true;
        options.onWaiting(`waiting for model quota: ${name} (${describeLimits(limits)} across the fleet), ${grant.ahead} call(s) ahead, starts in ${Math.ceil(left / 1000)} s`, grant);
        await sleep(Math.min(left, WAIT_NOTE_MS), options.signal);
      }
      // A 429 seen by another worker while this call waited pauses it too: it asks again.
      if (waited && (await this.client.workflow.getHandle(workflowId).query(quotaPausedUntilQuery)) > Date.now()) continue;
      return this.permit(workflowId, grant.at, tokens);
    }
  }

  private async reserve(workflowId: string, name: string, tokens: number, limits: ModelLimits, signal: AbortSignal): Promise<QuotaGrant> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.gate(() => this.reserveOnce(workflowId, name, tokens, limits));
      } catch (error) {
        if (attempt >= RESERVE_TRIES || !isBusy(error)) throw error;
        await sleep(Math.min(2_000, 100 * 2 ** attempt) * (0.5 + Math.random()), signal);
      }
    }
  }

  private reserveOnce(workflowId: string, name: string, tokens: number, limits: ModelLimits): Promise<QuotaGrant> {
    return this.client.workflow.executeUpdateWithStart(reserveQuotaUpdate, {
        args: [{ tokens, limits }],
        startWorkflowOperation: new WithStartWorkflowOperation(MODEL_QUOTA_WORKFLOW, {
          workflowId,
          taskQueue: this.taskQueue,
          args: [{ model: name }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          staticSummary: `the fleet's quota of model ${name}: ${describeLimits(limits)}`,
        }),
    });
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
