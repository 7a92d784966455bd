import { WorkflowNotFoundError } from '@temporalio/client';
import type { AgentClient, RunSummary } from '../client/agent-client';
import { runFilter } from '../client/run-filter';
import type { AgentEvent } from '../common/events';
import type { AgentRunState } from '../common/run';

/** What a run page shows: the run's state and events, its forks, and what the last post did. */
export interface RunView {
  workflowId: string;
  identity: string;
  csrf: string;
  webUiLink: string;
  /** Undefined when the run could not be read (why: `unreadable`). */
  state?: AgentRunState;
  unreadable?: string;
  events: AgentEvent[];
  forks: RunSummary[];
  refusal?: string;
}

/** Forks listed on a run's page at most. */
const FORKS_LISTED = 50;

/**
 * A run's page as read now: its state, its events and the runs forked from it (visibility, so a
 * fork started a moment ago may be listed a moment later). `bounded` keeps each read within the
 * page's deadline; a run that cannot be read is a page that says why.
 */
export async function readRunView(
  client: AgentClient,
  workflowId: string,
  options: { scope?: string; bounded: <T>(read: () => Promise<T>) => Promise<T> },
): Promise<Pick<RunView, 'state' | 'unreadable' | 'events' | 'forks'> & { found: boolean }> {
  const run = client.get(workflowId);
  const forkQuery = runFilter({ forkOf: workflowId })!;
  const [state, events, forks] = await Promise.all([
    options.bounded(() => run.state()).then(
      (read) => ({ read }),
      (error: Error) => ({ error }),
    ),
    options.bounded(() => run.eventsAfter(0)).catch(() => [] as AgentEvent[]),
    client.list({ query: options.scope ? `(${options.scope}) AND ${forkQuery}` : forkQuery, limit: FORKS_LISTED }).catch(() => [] as RunSummary[]),
  ]);
  if ('read' in state) return { state: state.read, events, forks, found: true };
  const found = !(state.error instanceof WorkflowNotFoundError);
  return { unreadable: found ? `The run could not be read: ${state.error.message}` : `No run ${workflowId}.`, events, forks, found };
}
