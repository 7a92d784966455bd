// Defining tools and agents: what an agents module imports.
export { defineTool, type AnyTool, type Tool, type ToolContext, type ToolOptions, type ToolPermission, type RichToolResult } from '../toolkit/define-tool';
export { defineAgent, type AgentDefinition, type AgentOptions, type OutputOptions, type ToolFilter, type ToolGroupOptions } from '../toolkit/define-agent';
export { FINAL_ANSWER_TOOL, type OutputSpec } from '../common/typed-output';
export { agentTool, DEFAULT_MAX_AGENT_DEPTH, type AgentToolOptions } from '../toolkit/agent-tool';
export { RetryableToolError } from '../toolkit/tool-errors';
export { harnessTools, type HarnessToolsOptions } from '../toolkit/tools/harness-tools';
export type { AgentDescriptor, ModelSettings } from '../common/agent';
export type { MemorySettings } from '../common/memory';
export { BUDGET_TOOL, type Budget, type Spend } from '../common/budget';
export type { ModelPrice, PriceTable } from '../common/pricing';
export type { PermissionDecision, PermissionMode, PermissionSettings } from '../common/permissions';
export type { RuntimeContext } from '../common/runtime';
export type { SubAgentSpec, ToolRetrySettings, ToolSpec } from '../common/tools';
export type { McpServersInput } from '../mcp';
