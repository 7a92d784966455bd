import type { Logger } from '@temporalio/common';
import { loadToolsConfig, resolveMcpServers } from '../mcp/tools-config';
import type { McpServersInput } from '../mcp/tools-config-schema';
import type { McpServersConfig, ToolsConfig } from '../mcp/tools-config-types';
import type { McpManager } from '../mcp/mcp-types';
import type { AgentRegistryOptions } from '../toolkit/agent-registry';

export interface WorkerToolsOptions {
  /** MCP servers given in code, in the tools.json shape. */
  mcpServers?: McpServersInput;
  /** `workspace/tools.json` by default; a missing file means no file configuration. */
  toolsConfigPath: string;
  logger: Logger;
  /** Called when a server connects, fails or changes its tool list. */
  onServersChanged?: () => void;
}

export interface WorkerTools {
  file?: ToolsConfig;
  servers: McpServersConfig;
  manager?: McpManager;
  registryOptions: Pick<AgentRegistryOptions, 'extraTools' | 'sharedFilter'>;
}

function mergeServers(code: McpServersConfig, file: McpServersConfig, filePath: string): McpServersConfig {
  const clash = Object.keys(code).filter((name) => name in file);
  if (clash.length > 0) {
    throw new Error(`MCP server name(s) ${clash.join(', ')} are configured both in code and in ${filePath}; use one place.`);
  }
  return { ...file, ...code };
}

/**
 * Reads tools.json and the code's MCP servers, connects to every server (in parallel; one that
 * fails is retried in the background), and says which MCP tools each agent gets.
 */
export async function loadWorkerTools(options: WorkerToolsOptions): Promise<WorkerTools> {
  const file = await loadToolsConfig(options.toolsConfigPath);
  const servers = mergeServers(
    options.mcpServers ? resolveMcpServers(options.mcpServers) : {},
    file?.mcpServers ?? {},
    options.toolsConfigPath,
  );
  const sharedFilter = file ? { allow: file.allow, deny: file.deny } : undefined;
  if (Object.keys(servers).length === 0) return { file, servers, registryOptions: { sharedFilter } };

  // The MCP SDK and ajv hold about 8 MiB of heap once loaded, so a worker without MCP servers never loads them.
  const { createMcpManager } = require('../mcp/mcp-manager') as typeof import('../mcp/mcp-manager');
  const { mcpRegisteredTools } = require('../mcp/mcp-tools') as typeof import('../mcp/mcp-tools');
  const manager = createMcpManager({
    servers,
    log: options.logger,
    clientName: 'durable-agent',
    ...(options.onServersChanged ? { onStatusChange: options.onServersChanged } : {}),
  });
  await manager.start();
  return {
    file,
    servers,
    manager,
    registryOptions: {
      sharedFilter,
      extraTools: (agent, toolkit) => {
        const wanted = agent.mcpServers ?? Object.keys(servers);
        const subset = Object.fromEntries(Object.entries(servers).filter(([name]) => wanted.includes(name)));
        return mcpRegisteredTools(manager, { takenNames: (name) => toolkit.has(name), servers: subset });
      },
    },
  };
}
