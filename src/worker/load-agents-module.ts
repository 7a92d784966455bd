import { resolve } from 'node:path';
import type { McpServersInput } from '../mcp';
import type { AgentDefinition } from '../toolkit/define-agent';

export interface AgentsModule {
  agents: AgentDefinition[];
  /** The MCP servers the module gives its worker in code (createWorker's `mcpServers`). */
  mcpServers?: McpServersInput;
  /**
   * The task queue the module's agents are served on (its `taskQueue` export), unless
   * TEMPORAL_TASK_QUEUE (or `--task-queue`) says otherwise: each agents module on a queue of its own.
   */
  taskQueue?: string;
}

const TYPESCRIPT = /\.[cm]?tsx?$/;

/**
 * JavaScript as it is; TypeScript through tsx (a dependency of this package), so a worker runs
 * `agents.ts` and the TypeScript it imports without the user installing or building anything.
 * The hook goes in only where nothing loads TypeScript yet (tsx itself, ts-node, a test runner).
 */
export async function importModule(path: string): Promise<unknown> {
  if (!TYPESCRIPT.test(path)) return import(path);
  // Its subpath's declarations need a newer moduleResolution than this package compiles with.
  if (!require.extensions?.['.ts']) (require('tsx/cjs/api') as { register(): unknown }).register();
  return require(path) as unknown;
}

function isAgent(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'agent';
}

function agentsIn(value: unknown): AgentDefinition[] {
  if (isAgent(value)) return [value];
  return Array.isArray(value) ? value.filter(isAgent) : [];
}

/**
 * The agents of a module the worker is built from: its `agents` export, else every exported
 * agent definition (alone or in an array). An `mcpServers` export is taken as the code servers,
 * a `taskQueue` export as the queue its worker serves by default.
 */
export async function loadAgentsModule(path: string): Promise<AgentsModule> {
  const exports = (await importModule(resolve(path))) as Record<string, unknown>;
  const found = 'agents' in exports ? agentsIn(exports.agents) : Object.values(exports).flatMap(agentsIn);
  const agents = [...new Set(found)];
  if (agents.length === 0) {
    throw new Error(`${path} exports no agent definitions (export \`agents\`, an array of defineAgent(...) results).`);
  }
  const mcpServers = exports.mcpServers as McpServersInput | undefined;
  const taskQueue = exports.taskQueue;
  if (taskQueue !== undefined && (typeof taskQueue !== 'string' || !/^[\w.\-/:]{1,200}$/.test(taskQueue))) {
    throw new Error(`${path} exports taskQueue ${JSON.stringify(taskQueue)}: a task queue name is 1 to 200 letters, digits, '.', '-', '_', '/' or ':'.`);
  }
  return { agents, ...(mcpServers ? { mcpServers } : {}), ...(taskQueue ? { taskQueue } : {}) };
}
