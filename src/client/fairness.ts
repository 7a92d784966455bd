import { createHash } from 'node:crypto';
import type { Priority } from '@temporalio/common';

/**
 * A run's share of its task queue among other users' runs (Temporal's task-queue fairness): runs
 * with the same key share one virtual queue, and the server dispatches the queues in proportion
 * to their weights, so one user's 500 runs do not starve another's 5. The key is the SHA-256 of
 * the run's `userId` unless given; `false` leaves the run out (it shares the default key with
 * every other). A key is not a payload: it is stored in the run's history as it is, unencrypted.
 */
export type FairnessOption = false | { key?: string; weight?: number };

/** Temporal's limit on a fairness key. */
const MAX_KEY_BYTES = 64;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The run's priority for the start request; undefined when it has no fairness key. */
export function fairnessPriority(userId: string | undefined, option: FairnessOption | undefined): Priority | undefined {
  if (option === false) return undefined;
  // The user id is a payload elsewhere (encrypted with a codec); its digest is all the key needs: one per user.
  const key = option?.key ?? (userId ? digest(`user:${userId}`) : undefined);
  if (key === undefined || key === '') return undefined;
  const weight = option?.weight;
  if (weight !== undefined && !(Number.isFinite(weight) && weight >= 0.001 && weight <= 1000)) {
    throw new TypeError(`fairness.weight ${weight} is not a weight: give a number from 0.001 to 1000 (1 by default).`);
  }
  // A longer key (an email address, say) is named by its digest, which is as distinct and fits.
  const fitted = Buffer.byteLength(key) <= MAX_KEY_BYTES ? key : digest(key);
  return { fairnessKey: fitted, ...(weight !== undefined ? { fairnessWeight: weight } : {}) };
}
