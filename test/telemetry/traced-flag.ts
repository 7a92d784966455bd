import type { AgentRun } from '../../src/client/agent-run';

/** The SDK flag (OpenTelemetryInterceptorsInstrumentsAllMethods) that marks a traced run in its history. */
const TRACED_FLAG = 6;

/** Whether any workflow task of the run recorded the flag that makes the run traced. */
export async function recordedTracedFlag(run: AgentRun): Promise<boolean> {
  const { events } = await run.handle.fetchHistory();
  return (events ?? []).some((event) => event.workflowTaskCompletedEventAttributes?.sdkMetadata?.langUsedFlags?.includes(TRACED_FLAG));
}
