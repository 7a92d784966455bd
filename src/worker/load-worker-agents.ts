import { loadAgentsModule, type AgentsModule } from '../client/cli/load-agents-module';
import { WorkerConfigurationError } from './configuration-error';
import type { AgentsSource } from './entry-settings';

/** The agents (and code MCP servers) the entry point serves: the user's module, or the demo's. */
export async function loadWorkerAgents(source: AgentsSource, workspace: string): Promise<AgentsModule> {
  if ('demo' in source) {
    // Loaded only on request: a production worker never builds the demo agents.
    const { demoAgents } = require('../demo/agents') as typeof import('../demo/agents');
    return { agents: demoAgents({ workspace }) };
  }
  try {
    return await loadAgentsModule(source.module);
  } catch (error) {
    // A module that fails to load fails the same way at every restart.
    throw new WorkerConfigurationError(`AGENT_MODULE=${source.module} could not be loaded: ${(error as Error).message}`);
  }
}
