import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolInfo } from './mcp-types';

const MAX_TOOL_PAGES = 100;

/** Every tool the server offers, following pagination cursors. */
export async function listAllTools(client: Client, server: string, timeoutMs: number): Promise<McpToolInfo[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools.map((tool) => toToolInfo(server, tool));
}

export function toToolInfo(server: string, tool: Tool): McpToolInfo {
  const title = tool.title ?? tool.annotations?.title;
  return {
    server,
    name: tool.name,
    ...(title ? { title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.execution?.taskSupport ? { taskSupport: tool.execution.taskSupport } : {}),
  };
}
