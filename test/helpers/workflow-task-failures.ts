import type { AgentRun } from '../../src/client/agent-run';

/** Every WorkflowTaskFailed event of the run's current history, with its cause and message. */
export async function workflowTaskFailures(run: AgentRun): Promise<{ cause: number; message: string }[]> {
  const history = await run.handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const failed = event.workflowTaskFailedEventAttributes;
    return failed ? [{ cause: Number(failed.cause ?? 0), message: failed.failure?.message ?? '' }] : [];
  });
}
