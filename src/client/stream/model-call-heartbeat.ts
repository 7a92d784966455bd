import { z } from 'zod';
import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { ModelHeartbeat } from '../../common/contracts/model-call';
import { decodePayload } from '../decode-payload';
import { describeExecution } from '../run-execution';

const MODEL_ACTIVITY = 'callModel';

/** What a reader takes of a model call's heartbeat (parsed: the details come from whatever worker ran the call). */
const heartbeatSchema = z.object({
  model: z.string(),
  iteration: z.number(),
  text: z.string(),
  attempt: z.number(),
  live: z.string().regex(/^https?:\/\//).optional().catch(undefined),
  quota: z.string().optional().catch(undefined),
});

/**
 * The streaming model call in flight as its attempt's last heartbeat reported it, with where its
 * deltas are served (`text`: as of that heartbeat, read only when the worker serves no deltas).
 */
export type ModelCallInFlight = Pick<ModelHeartbeat, 'model' | 'iteration' | 'text' | 'attempt' | 'live' | 'quota'>;

/**
 * Reads the model call in flight from the pending activity's heartbeat details (describe), so
 * following a stream adds nothing to the run's history: where its live endpoint serves its deltas,
 * its attempt, a quota wait. Undefined when no model call is running or its attempt has not
 * heartbeated yet (non-streaming calls never do).
 */
export async function readModelCall(handle: WorkflowHandle): Promise<ModelCallInFlight | undefined> {
  const { raw } = await describeExecution(handle);
  const pending = (raw.pendingActivities ?? []).find((a) => a.activityType?.name === MODEL_ACTIVITY);
  const first = pending?.heartbeatDetails?.payloads?.[0];
  if (!first) return undefined;
  const parsed = heartbeatSchema.safeParse(await decodePayload(handle.client, first as Payload));
  if (!parsed.success) return undefined;
  const { live, quota, ...call } = parsed.data;
  // A retry starts with the details of the attempt before it until its own first heartbeat.
  if (pending?.attempt && call.attempt !== pending.attempt) return undefined;
  return { ...call, ...(live !== undefined ? { live } : {}), ...(quota !== undefined ? { quota } : {}) };
}
