/** Agents served as a Nexus service, and what a caller in another namespace imports to call them. */
export { agentNexusService, DEFAULT_AGENT_NEXUS_SERVICE, type AgentNexusServiceOptions, type AgentOperations, type NexusAgent } from './service-definition';
export { agentNexusServiceHandler } from './agent-operations';
export { parseOperationInput, type AgentOperationInput } from './operation-input';
