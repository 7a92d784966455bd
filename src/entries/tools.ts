// durable-agent/tools: defining tools and agents in depth, beyond the main entry's defineTool and
// defineAgent: the types of their options' parts and of what a worker publishes about an agent,
// the harness's safety checks and the permission engine (to test your rules), pricing.
export type { AgentToolOptions } from '../toolkit/agent-tool';
export { DEFAULT_MAX_AGENT_DEPTH } from '../toolkit/agent-tool';
export type { OutputOptions, ToolFilter, ToolGroupOptions } from '../toolkit/define-agent';
export type { HarnessToolsOptions } from '../toolkit/tools/harness-tools';
export { FINAL_ANSWER_TOOL, type OutputSpec } from '../common/typed-output';
export type { AgentDescriptor } from '../common/agent';
export type { MemorySettings } from '../common/memory';
export type { ApprovalSettings, ApproverSettings } from '../common/approvals';
export type { SubAgentSpec, ToolRetrySettings, ToolSpec } from '../common/tools';
export type { PermissionDecision, PermissionMode } from '../common/permissions';
export { checkShellCommand } from '../toolkit/tools/shell/check-shell-command';
export { evaluatePermission, type PermissionRequest } from '../permissions';
export { callCost, type ModelPrice } from '../common/pricing';
export { nexusTool, type NexusToolOptions, type NexusName } from '../toolkit/nexus-tool';
export type { NexusToolSpec } from '../common/tools';
// A remote A2A (Agent2Agent) agent as a tool; the A2A SDK loads when the tool is first called.
export { a2aAgent, type A2aAgentOptions } from '../toolkit/a2a-agent';
