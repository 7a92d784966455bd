import type { AgentsModule } from '../worker/load-agents-module';
import type { AgentsSource } from './worker-settings';

/**
 * The agents a command serves: the user's module (JavaScript or TypeScript), or the demo's. Only
 * this floor loads the demo, and only when asked (a production worker never builds its agents).
 */
export async function loadCommandAgents(source: AgentsSource, workspace: string): Promise<AgentsModule> {
  if ('demo' in source) {
    const { demoAgents } = require('../demo/agents') as typeof import('../demo/agents');
    return { agents: demoAgents({ workspace }) };
  }
  const { loadWorkerAgents } = require('../worker/load-worker-agents') as typeof import('../worker/load-worker-agents');
  return loadWorkerAgents(source.module);
}
