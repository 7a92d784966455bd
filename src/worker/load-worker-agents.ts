import { loadAgentsModule, type AgentsModule } from './load-agents-module';
import { WorkerConfigurationError } from './configuration-error';

/** The agents (and code MCP servers) of the user's module, or a configuration error naming it. */
export async function loadWorkerAgents(module: string): Promise<AgentsModule> {
  try {
    return await loadAgentsModule(module);
  } catch (error) {
    // A module that fails to load fails the same way at every restart.
    throw new WorkerConfigurationError(`AGENT_MODULE=${module} could not be loaded: ${(error as Error).message}`);
  }
}
