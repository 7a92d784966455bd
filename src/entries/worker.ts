// durable-agent/worker: running agents (and what a worker is built from).
export { createWorker, type AgentWorker, type CreateWorkerOptions } from '../worker/create-worker';
export { bundleAgentWorkflows, type AgentWorkflowsBundle, type BundleAgentWorkflowsOptions } from '../worker/bundle-workflows';
export { readWorkerConfig, type TemporalConnectionOptions, type WorkerConfig, type WorkerEnvConfig } from '../worker/config';
export type { Middleware, ToolCallInfo } from '../activities/middleware';
export { createChatModel } from '../model/create-chat-model';
export type { ChatModel, ChatModelConfig } from '../model/chat-model-types';
export type { ChatModelPort } from '../common/contracts/model-call';
export { loadToolsConfig } from '../mcp/tools-config';
export type { McpServersInput, ToolsConfig } from '../mcp';
export { createMcpManager } from './lazy-worker';
export type { AgentApprovalPolicyInput, PolicySpecInput } from '../policy';
export type { PolicyVerdict } from '../common/permissions';
export { agentNexusService, agentNexusServiceHandler, DEFAULT_AGENT_NEXUS_SERVICE, type AgentNexusServiceOptions, type AgentOperationInput } from '../nexus';
