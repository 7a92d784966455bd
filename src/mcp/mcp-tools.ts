import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { JsonSchema } from '../common/tools';
import type { RichToolResult, ToolContext } from '../toolkit/define-tool';
import type { RegisteredTool } from '../toolkit/registered-tool';
import { toRichToolResult } from './mcp-content';
import { McpCallTimeoutError, McpConnectionLostError, McpProtocolError, McpServerUnavailableError } from './mcp-errors';
import { createMcpInputValidator } from './mcp-input-validator';
import { DEFAULT_MCP_REQUEST_TIMEOUT_MS } from './mcp-manager';
import type { McpManager, McpToolInfo } from './mcp-types';
import { mcpPermissionDecision, mcpToolPermission } from './mcp-permission';
import { isToolEnabled } from './tool-filter';
import { assignToolNames } from './tool-names';
import type { McpServersConfig } from './tools-config-types';

export interface McpToolsOptions {
  /** Names already registered (code and built-in tools); an MCP tool never takes one of them. */
  takenNames: (name: string) => boolean;
  /** The servers whose tools to offer, with their enableTools/disableTools/prefix/permission/timeout. */
  servers: McpServersConfig;
  /** Request timeout for servers without `timeout`; keep equal to the manager's. Default 120 s. */
  defaultTimeoutMs?: number;
  /** The `_meta` sent with each call. Default: the run's runtime context plus the call's ids. */
  meta?: (ctx: ToolContext) => Record<string, unknown>;
}

const PATTERN_FIELDS = ['command', 'path', 'file_path', 'url', 'pattern'];
/** Room for the activity to report the MCP timeout as a result before its own timeout fires. */
const ACTIVITY_TIMEOUT_MARGIN_S = 30;

export function defaultMcpMeta(ctx: ToolContext): Record<string, unknown> {
  return {
    ...ctx.runtime,
    agent: ctx.agent,
    workflowId: ctx.workflowId,
    runId: ctx.runId,
    callId: ctx.callId,
    idempotencyKey: ctx.idempotencyKey,
  };
}

/**
 * The listed MCP tools as registered tools, named so that nothing is replaced (see
 * assignToolNames). Tools that can only run as MCP tasks are left out.
 */
export function mcpRegisteredTools(manager: Pick<McpManager, 'tools' | 'callTool'>, options: McpToolsOptions): RegisteredTool[] {
  const offered = manager.tools().filter((tool) => {
    const config = options.servers[tool.server];
    return config !== undefined && tool.taskSupport !== 'required' && isToolEnabled(tool.name, config);
  });
  const names = assignToolNames(
    offered.map((tool) => ({ server: tool.server, tool: tool.name, alwaysPrefix: options.servers[tool.server]!.prefix })),
    options.takenNames,
  );
  return offered.map((tool, index) => toRegisteredTool(manager, tool, names[index]!, options));
}

function toRegisteredTool(
  manager: Pick<McpManager, 'callTool'>,
  tool: McpToolInfo,
  name: string,
  options: McpToolsOptions,
): RegisteredTool {
  const config = options.servers[tool.server]!;
  const timeoutMs = config.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_MCP_REQUEST_TIMEOUT_MS;
  const readOnly = tool.annotations?.readOnlyHint === true;
  const behavior = mcpToolPermission(tool.annotations, config.permission);
  const decision = mcpPermissionDecision(behavior, name, tool.server, readOnly);
  const parameters = modelSchema(tool.inputSchema);
  const patternField = PATTERN_FIELDS.find((field) => field in ((parameters.properties as object | undefined) ?? {}));
  const buildMeta = options.meta ?? defaultMcpMeta;

  return {
    spec: {
      name,
      description: tool.description ?? tool.title ?? `Tool: ${tool.name}`,
      parameters,
      readOnly,
      concurrencySafe: readOnly,
      external: false,
      source: { kind: 'mcp', server: tool.server, toolName: tool.name },
      permission: behavior,
      timeout: `${Math.ceil(timeoutMs / 1000) + ACTIVITY_TIMEOUT_MARGIN_S}s`,
    },
    edits: false,
    ...(patternField ? { patternField } : {}),
    permission: () => decision,
    validate: createMcpInputValidator(name, tool.inputSchema),
    async execute(input, ctx) {
      try {
        const result = await manager.callTool(tool.server, tool.name, input as Record<string, unknown>, {
          signal: ctx.signal,
          timeoutMs,
          onProgress: (progress) => ctx.heartbeat(progress),
          meta: buildMeta(ctx),
        });
        return toRichToolResult(result);
      } catch (error) {
        return callFailure(error, name);
      }
    },
  };
}

/** Timeouts and server-side errors go to the model; infrastructure faults go to Temporal's retries. */
function callFailure(error: unknown, name: string): RichToolResult {
  if (error instanceof McpCallTimeoutError) {
    return errorResult(`Error: the MCP call to '${name}' timed out after ${error.timeoutMs} ms.`);
  }
  if (error instanceof McpProtocolError) return errorResult(`Error: MCP tool error: ${error.detail}`);
  if (error instanceof McpServerUnavailableError) {
    throw ApplicationFailure.retryable(`${error.message}; another worker may run the call.`, FailureTypes.toolUnavailable);
  }
  if (error instanceof McpConnectionLostError) throw ApplicationFailure.retryable(error.message, FailureTypes.toolRetryable);
  throw error;
}

function errorResult(text: string): RichToolResult {
  return { blocks: [{ type: 'text', text }], isError: true };
}

/** The schema as the model sees it: an object schema without the draft marker. */
function modelSchema(inputSchema: JsonSchema): JsonSchema {
  const { $schema: _schema, ...rest } = inputSchema;
  return { ...rest, type: 'object', properties: (rest.properties as object | undefined) ?? {} };
}
