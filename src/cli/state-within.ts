import type { AgentRun } from '../client/agent-run';
import type { AgentRunState } from '../common/run';
import { unlessUndecryptable } from './unless-undecryptable';

/** The run's state, or undefined when no worker answers within `ms` (an answer this client cannot decrypt is an error). */
export async function stateWithin(run: AgentRun, ms: number): Promise<AgentRunState | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([run.state().catch(unlessUndecryptable), timeout]).finally(() => clearTimeout(timer));
}
