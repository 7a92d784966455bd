// durable-agent/nexus: what a caller's workflow in another namespace imports to run agents through
// Nexus (the service's definition and its input type). Sandbox-safe: nexus-rpc only, so a workflow
// bundle may import it. The worker's side (the handler) is createWorker's `nexus` option.
export { agentNexusService, DEFAULT_AGENT_NEXUS_SERVICE, type AgentNexusServiceOptions, type AgentOperations, type NexusAgent } from '../nexus/service-definition';
export type { AgentOperationInput } from '../nexus/operation-input';
export type { AgentRunResult } from '../common/run';
