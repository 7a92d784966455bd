import type { AgentsModule } from '../worker/load-agents-module';
import { stringOption, UsageError, type CommandContext } from './command';
import type { AgentsSource } from './worker-settings';

/**
 * The agents a command was pointed at: `--module PATH` (or AGENT_MODULE), or the demo's with
 * `--demo`. Never the demo by default: in a user's project that would answer for agents it does not have.
 */
export function commandAgentsSource(ctx: CommandContext): AgentsSource {
  const module = stringOption(ctx, 'module') ?? (process.env.AGENT_MODULE || undefined);
  if (module) return { module };
  if (ctx.values.demo === true) return { demo: true };
  throw new UsageError('which agents? Give --module PATH (or AGENT_MODULE), or --demo for the demo agents');
}

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
