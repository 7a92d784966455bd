import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';

/**
 * A model's limits for the whole fleet: requests and tokens (prompt and completion) per minute.
 * Every worker that calls the model sets the same (see WorkerConfig.modelLimits); a quota workflow
 * per model and task queue (`durable-agent-quota:<task queue>:<model>`) hands out the times calls may start.
 */
export interface ModelLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

const perMinute = (what: string) => z.number({ invalid_type_error: `${what} must be a number` }).int(`${what} must be a whole number`).positive(`${what} must be more than 0`);

/** Built on use (see boundary/payload-schemas.ts). */
export function modelLimitsSchema() {
  return z.record(
    z
      .object({ requestsPerMinute: perMinute('requestsPerMinute').optional(), tokensPerMinute: perMinute('tokensPerMinute').optional() })
      .strict()
      .refine((limits) => limits.requestsPerMinute !== undefined || limits.tokensPerMinute !== undefined, 'name requestsPerMinute, tokensPerMinute or both'),
  );
}

/** Why `value` is not a table of model limits by model name, or undefined. */
export function modelLimitsProblem(what: string, value: unknown): string | undefined {
  const parsed = modelLimitsSchema().safeParse(value);
  if (parsed.success) return undefined;
  return `${what}: ${parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ')}`;
}

const finite = () => z.number().finite();
/** What the quota workflow takes from outside, parsed before use (built on use). */
export const quotaPayloadSchemas = {
  reserve: () => z.object({ tokens: finite().nonnegative(), limits: z.object({}).passthrough() }).strict(),
  used: () => z.object({ at: finite(), estimated: finite(), used: finite().nonnegative() }).strict(),
  pause: () => z.object({ until: finite() }).strict(),
};

export const MODEL_QUOTA_WORKFLOW = 'modelQuotaWorkflow';

/** The one quota workflow of a model for the workers of a task queue (one fleet). */
export function modelQuotaWorkflowId(taskQueue: string, model: string): string {
  return `durable-agent-quota:${taskQueue}:${model}`;
}

/** A call asks for a start time: its estimated tokens and the limits its worker has for the model. */
export interface QuotaRequest {
  tokens: number;
  limits: ModelLimits;
}

/** When the call may start (ms since the epoch), and how many calls were granted a time before it that has not come yet. */
export interface QuotaGrant {
  at: number;
  ahead: number;
}

/** A call that ran reports what it really used (the grant's `at`, its estimate and the provider's count). */
export interface QuotaUsage {
  at: number;
  estimated: number;
  used: number;
}

export const reserveQuotaUpdate = defineUpdate<QuotaGrant, [QuotaRequest]>('reserve');
export const quotaUsedSignal = defineSignal<[QuotaUsage]>('used');
/** The provider answered 429: no call of the model starts before `until` (ms since the epoch). */
export const quotaPauseSignal = defineSignal<[{ until: number }]>('pause');
export const quotaPausedUntilQuery = defineQuery<number>('pausedUntil');
