/**
 * Behaviours of the workflow that a run takes only when the worker that described it (the
 * describeAgent activity, whose result is recorded) named them. A run described by an older
 * worker has no such name in its recorded description and replays the older way. Unlike a
 * patch, this costs no marker and no search-attribute upsert per run.
 */
export const RUNTIME_FEATURES = {
  /** The single call of a batch is checked by the activity that runs it (see workflows/tools/run-on-worker.ts). */
  checkInExecute: 'check-in-execute',
  /** Model calls name the larger tool results instead of carrying them again (see contracts/tool-result-references.ts). */
  toolResultReferences: 'tool-result-references',
  /**
   * Calls that start waiting for a person, and their answers, are told to the worker's webhooks
   * (the notifyWait activity). Named only by a worker configured with webhooks, so runs of others
   * record no notification.
   */
  notifyWaits: 'notify-waits',
  /**
   * A call's effects go out in the one fixed order of workflows/calls/apply-change.ts (event,
   * status and details, visibility, notice, telemetry). Runs described before replay the order
   * they were recorded in: there a call's notice went out before the status it changed.
   */
  orderedCallEffects: 'ordered-call-effects',
  /** The run publishes the calls it waits on in its memo, for listing through visibility (see contracts/published-waits.ts). */
  publishedWaits: 'published-waits',
  /** Notices still being delivered when the run ends are handed to a workflow of their own instead of being dropped. */
  noticesOutliveRun: 'notices-outlive-run',
  /**
   * A read-only tool's call with the same arguments as one that already succeeded is answered from
   * that result, with a note to the model, instead of running again. Named unless the agent says
   * `repeatedReadOnlyCalls: 'run'`.
   */
  reuseReadOnlyRepeats: 'reuse-read-only-repeats',
  /**
   * The loop awaits only what waits for something: no approval wait when nothing asks, no
   * continue-as-new check as a promise when none is suggested, a batch of results settled at once,
   * a call the check ran given back without another turn. Fewer promises a step (each costs the
   * SDK a stack capture); the commands are the same, but their order against a handler that runs
   * in the same activation may not be, so runs described before replay the older way.
   */
  leanSteps: 'lean-steps',
  /**
   * Answers are checked against who may answer (approvers), the arguments and the rules the
   * answerer saw; the run reminds, escalates and lets an approver delegate, with durable timers
   * (see docs/approvals.md). Waiting calls publish their arguments' digest and rules version.
   */
  answerRules: 'answer-rules',
  /**
   * A nexusTool's call starts its Nexus operation from the workflow (see workflows/tools/nexus-operation.ts).
   * Named only for agents that have such a tool, so other runs describe themselves as before.
   */
  nexusTools: 'nexus-tools',
} as const;

export type RuntimeFeature = (typeof RUNTIME_FEATURES)[keyof typeof RUNTIME_FEATURES];

/** What workers of this version describe runs with. */
export const CURRENT_RUNTIME_FEATURES: RuntimeFeature[] = [
  RUNTIME_FEATURES.checkInExecute,
  RUNTIME_FEATURES.toolResultReferences,
  RUNTIME_FEATURES.orderedCallEffects,
  RUNTIME_FEATURES.publishedWaits,
  RUNTIME_FEATURES.noticesOutliveRun,
  RUNTIME_FEATURES.leanSteps,
  RUNTIME_FEATURES.answerRules,
];

/** Whether the run's recorded description names the feature. */
export function hasRuntimeFeature(descriptor: { runtimeFeatures?: readonly string[] }, feature: RuntimeFeature): boolean {
  return descriptor.runtimeFeatures?.includes(feature) ?? false;
}
