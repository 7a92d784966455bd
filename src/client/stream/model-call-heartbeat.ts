import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { ModelHeartbeat } from '../../common/contracts/model-call';
import { decodePayload } from '../decode-payload';
import { describeExecution } from '../run-execution';

const MODEL_ACTIVITY = 'callModel';

function isModelHeartbeat(value: unknown): value is ModelHeartbeat {
  const candidate = value as Partial<ModelHeartbeat> | null | undefined;
  return typeof candidate?.text === 'string' && typeof candidate.model === 'string' && typeof candidate.iteration === 'number';
}

/** The streaming model call in flight as its attempt's last heartbeat reported it, with where its deltas are served. */
export interface ModelCallInFlight {
  model: string;
  iteration: number;
  /** The text written so far, as of the last heartbeat: read only when the worker serves no deltas. */
  text: string;
  attempt: number;
  live?: string;
  /** Set while the call waits for its model's fleet-wide quota: what it waits for. */
  quota?: string;
}

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
  const details = await decodePayload(handle.client, first as Payload);
  if (!isModelHeartbeat(details)) return undefined;
  // A retry starts with the details of the attempt before it until its own first heartbeat.
  if (pending?.attempt && details.attempt !== pending.attempt) return undefined;
  const live = typeof details.live === 'string' && /^https?:\/\//.test(details.live) ? { live: details.live } : {};
  const quota = typeof details.quota === 'string' ? { quota: details.quota } : {};
  return { model: details.model, iteration: details.iteration, text: details.text, attempt: details.attempt, ...live, ...quota };
}
