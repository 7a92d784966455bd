// Defining tools and agents: what an agents module imports from the main entry. The types of
// their options' parts (tool groups, filters, output, memory, retries, descriptors) are in
// durable-agent/tools.
export { defineTool, type AnyTool, type Tool, type ToolContext, type ToolOptions, type ToolPermission, type RichToolResult } from '../toolkit/define-tool';
export { defineAgent, type AgentDefinition, type AgentOptions } from '../toolkit/define-agent';
export { agentTool } from '../toolkit/agent-tool';
export { RetryableToolError } from '../toolkit/tool-errors';
export { harnessTools } from '../toolkit/tools/harness-tools';
export type { ModelSettings } from '../common/agent';
export type { Budget } from '../common/budget';
export type { PriceTable } from '../common/pricing';
export type { PermissionSettings } from '../common/permissions';
export type { RuntimeContext } from '../common/runtime';
