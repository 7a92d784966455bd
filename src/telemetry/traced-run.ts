// Workflow code: whether the current run is traced (see workflow-interceptors.ts for the decision).
// Internal to the SDK (pinned to an exact version); the OpenTelemetry interceptors use the same two.
import { SdkFlags } from '@temporalio/workflow/lib/flags';
import { getActivator } from '@temporalio/workflow/lib/global-attributes';
import { WORKFLOW_TRACING_MARKER } from './workflow-tracing-marker';

const TRACED_FLAG = SdkFlags.OpenTelemetryInterceptorsInstrumentsAllMethods;

/**
 * Decides once per run whether it is traced, the same on every replay. Even an interceptor that
 * only passes calls on adds microtask turns, which reorders the commands of runs recorded without
 * it (an update's completion lands after a search-attribute upsert), so a run's tracing must never
 * change once decided. The mark is the SDK's own flag for these interceptors, recorded in history
 * (no command) by the run's first, non-replayed workflow task when the worker running it traces
 * (it registers WORKFLOW_TRACING_MARKER); on replay the flag in history decides. Runs of 0.2.0
 * set it always, so they replay traced.
 */
export function decideTracedRun(): boolean {
  const activator = getActivator();
  // Outside replay, hasFlag records the flag: only a worker that traces may call it then.
  if (!activator.info.unsafe.isReplaying && !activator.registeredActivityNames.has(WORKFLOW_TRACING_MARKER)) return false;
  return activator.hasFlag(TRACED_FLAG);
}

/** Whether the run was decided traced (its interceptors decide at the run's first call). */
export function isTracedRun(): boolean {
  // knownFlags is private to the activator; hasFlag would record the flag outside replay.
  return (getActivator() as unknown as { knownFlags: Set<number> }).knownFlags.has(TRACED_FLAG.id);
}
