import type { PermissionBehavior, PermissionDecision } from '../common/permissions';
import type { McpToolAnnotations } from './mcp-types';

/**
 * readOnlyHint → allow; destructiveHint (which MCP presumes true when a tool says it is not
 * read-only and is silent about it) → ask; otherwise the server's configured permission, else ask.
 */
export function mcpToolPermission(annotations: McpToolAnnotations | undefined, serverDefault?: PermissionBehavior): PermissionBehavior {
  if (annotations?.readOnlyHint === true) return 'allow';
  const destructive =
    annotations?.destructiveHint === true || (annotations?.readOnlyHint === false && annotations.destructiveHint === undefined);
  if (destructive) return 'ask';
  return serverDefault ?? 'ask';
}

export function mcpPermissionDecision(
  behavior: PermissionBehavior,
  toolName: string,
  server: string,
  readOnly = false,
): PermissionDecision {
  switch (behavior) {
    case 'allow':
      return readOnly
        ? { behavior, reason: `MCP tool '${toolName}' is read-only (server '${server}')` }
        : { behavior, reason: `MCP tool '${toolName}' is allowed by the configuration of MCP server '${server}'` };
    case 'deny':
      return { behavior, reason: `MCP tool '${toolName}' is denied by the configuration of MCP server '${server}'` };
    default:
      return { behavior, reason: `MCP tool '${toolName}' requires explicit authorization before each call` };
  }
}
