import type { Logger } from '@temporalio/common';
import type { McpServerStatus } from '../mcp';
import { AgentRegistry } from '../toolkit/agent-registry';
import { loadWorkerTools } from '../worker/worker-tools';
import type { AgentsModule } from '../worker/load-agents-module';

export interface LocalAgentRegistry {
  registry: AgentRegistry;
  /** The MCP servers as they were when the tools were listed: a failed one's tools are missing. */
  servers: McpServerStatus[];
  /** Stops the MCP servers it started. */
  close(): Promise<void>;
}

const silent: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The agents' tools built the way a worker builds them, from the same definitions and tools.json:
 * MCP servers are started (stdio) or connected (HTTP) just long enough to list their tools.
 */
export async function buildLocalAgentRegistry(module: AgentsModule, toolsConfigPath: string): Promise<LocalAgentRegistry> {
  const tools = await loadWorkerTools({ mcpServers: module.mcpServers, toolsConfigPath, logger: silent });
  try {
    const registry = new AgentRegistry(module.agents, tools.registryOptions);
    return {
      registry,
      servers: tools.manager?.serverStatus() ?? [],
      close: async () => tools.manager?.close(),
    };
  } catch (error) {
    await tools.manager?.close();
    throw error;
  }
}
