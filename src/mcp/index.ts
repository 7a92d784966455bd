export { loadToolsConfig, parseToolsConfig, resolveMcpServers } from './tools-config';
export { ToolsConfigError, type ToolsConfigProblem } from './tools-config-error';
export type {
  HttpServerInput,
  McpServerInput,
  McpServersInput,
  StdioServerInput,
} from './tools-config-schema';
export type {
  HttpServerConfig,
  McpServerConfig,
  McpServersConfig,
  StdioServerConfig,
  ToolsConfig,
} from './tools-config-types';
export {
  createMcpManager,
  DEFAULT_MCP_INIT_TIMEOUT_MS,
  DEFAULT_MCP_REQUEST_TIMEOUT_MS,
  type McpManagerOptions,
} from './mcp-manager';
export type {
  McpCallOptions,
  McpCallResult,
  McpLogger,
  McpManager,
  McpProgress,
  McpServerState,
  McpServerStatus,
  McpToolAnnotations,
  McpToolInfo,
} from './mcp-types';
export { McpCallTimeoutError, McpConnectionLostError, McpProtocolError, McpServerUnavailableError } from './mcp-errors';
export { defaultMcpMeta, mcpRegisteredTools, type McpToolsOptions } from './mcp-tools';
export { mcpToolPermission } from './mcp-permission';
export { toFunctionName } from './tool-names';
