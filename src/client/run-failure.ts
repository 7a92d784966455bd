/**
 * One line saying how a run ended without an answer: its failure type and message, or that it was
 * cancelled or terminated. Errors are recognised by name (as Temporal's failure classes name
 * themselves), so the CLI can print this without loading the Temporal client first.
 */
export function describeRunFailure(workflowId: string, error: unknown): string {
  const failed = error as { name?: string; message?: string; cause?: { name?: string; message?: string; type?: string } } | undefined;
  if (failed?.name !== 'WorkflowFailedError') return `Run ${workflowId}: ${failed?.message ?? String(error)}`;
  const cause = failed.cause;
  switch (cause?.name) {
    case 'CancelledFailure':
      return `Run ${workflowId} was cancelled.`;
    case 'TerminatedFailure':
      return `Run ${workflowId} was terminated${cause.message ? `: ${cause.message}` : ''}.`;
    case 'TimeoutFailure':
      return `Run ${workflowId} timed out.`;
    case 'ApplicationFailure':
      return `Run ${workflowId} failed (${cause.type ?? 'Error'}): ${cause.message}`;
    default:
      return `Run ${workflowId} failed: ${cause?.message ?? failed.message}`;
  }
}
