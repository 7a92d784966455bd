import type { AgentWorker, CreateWorkerOptions } from '../worker/create-worker';
import type { AgentWorkflowsBundle, BundleAgentWorkflowsOptions } from '../worker/bundle-workflows';
import type { McpManagerOptions } from '../mcp/mcp-manager';
import type { McpManager } from '../mcp/mcp-types';

/** createWorker of durable-agent/worker, loaded on first call: importing the package costs no worker code. */
export async function createWorker(options: CreateWorkerOptions): Promise<AgentWorker> {
  const worker = require('../worker/create-worker') as typeof import('../worker/create-worker');
  return worker.createWorker(options);
}

/** bundleAgentWorkflows of durable-agent/worker, loaded on first call. */
export async function bundleAgentWorkflows(options: BundleAgentWorkflowsOptions): Promise<AgentWorkflowsBundle> {
  const bundle = require('../worker/bundle-workflows') as typeof import('../worker/bundle-workflows');
  return bundle.bundleAgentWorkflows(options);
}

/** createMcpManager of durable-agent/worker, loaded on first call: the MCP SDK stays unloaded in a worker without MCP servers. */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const manager = require('../mcp/mcp-manager') as typeof import('../mcp/mcp-manager');
  return manager.createMcpManager(options);
}
