/**
 * Behaviours of the workflow that a run takes only when the worker that described it (the
 * describeAgent activity, whose result is recorded) named them. A run described by an older
 * worker has no such name in its recorded description and replays the older way. Unlike a
 * patch, this costs no marker and no search-attribute upsert per run.
 */
export const RUNTIME_FEATURES = {
  /** The single call of a batch is checked by the activity that runs it (see workflows/run-on-worker.ts). */
  checkInExecute: 'check-in-execute',
  /** Model calls name the larger tool results instead of carrying them again (see contracts/tool-result-references.ts). */
  toolResultReferences: 'tool-result-references',
  /**
   * Calls that start waiting for a person, and their answers, are told to the worker's webhooks
   * (the notifyWait activity). Named only by a worker configured with webhooks, so runs of others
   * record no notification.
   */
  notifyWaits: 'notify-waits',
} as const;

export type RuntimeFeature = (typeof RUNTIME_FEATURES)[keyof typeof RUNTIME_FEATURES];

/** What workers of this version describe runs with. */
export const CURRENT_RUNTIME_FEATURES: RuntimeFeature[] = [RUNTIME_FEATURES.checkInExecute, RUNTIME_FEATURES.toolResultReferences];
