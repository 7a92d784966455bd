import { readFile } from 'node:fs/promises';
import type { ZodIssue } from 'zod';
import { durationMs } from '../common/duration';
import { substituteEnv } from './env-substitution';
import { JsonSyntaxError, parseJsonWithLocations, type JsonLocation, type JsonPath } from './json-locations';
import { ToolsConfigError, formatJsonPath, type ToolsConfigProblem } from './tools-config-error';
import {
  explainIssues,
  mcpServersSchema,
  toolsFileSchema,
  type McpServerInput,
  type McpServersInput,
} from './tools-config-schema';
import type { McpServerConfig, McpServersConfig, ToolsConfig } from './tools-config-types';

type Env = Record<string, string | undefined>;
type Locate = (path: JsonPath) => JsonLocation | undefined;

/**
 * Reads `tools.json` (Claude Desktop's `mcpServers` shape plus our extensions). A missing
 * file means no MCP and returns undefined; anything unusable throws a ToolsConfigError that
 * names the file, line, column and reason.
 */
export async function loadToolsConfig(path: string, env: Env = process.env): Promise<ToolsConfig | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolsConfigError(path, [{ path: '', message: `cannot read the file: ${(error as Error).message}` }]);
  }
  return parseToolsConfig(text, { path, env });
}

export function parseToolsConfig(text: string, options: { path?: string; env?: Env } = {}): ToolsConfig {
  const file = options.path;
  let located: ReturnType<typeof parseJsonWithLocations>;
  try {
    located = parseJsonWithLocations(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new ToolsConfigError(file, [{ path: '', message: `invalid JSON: ${error.reason}`, location: error.location }]);
  }
  const raw = located.value as { mcpServers?: unknown } | null;
  const servers = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw.mcpServers : undefined;
  const substituted = substituteEnvOrThrow(servers, options.env ?? process.env, ['mcpServers'], file, located.locate);
  const document = servers === undefined ? raw : { ...raw, mcpServers: substituted };

  const parsed = toolsFileSchema.safeParse(document);
  if (!parsed.success) throw schemaError(parsed.error.issues, file, located.locate);
  return {
    ...(file ? { path: file } : {}),
    allow: parsed.data.allow ?? [],
    deny: parsed.data.deny ?? [],
    mcpServers: toServersConfig(parsed.data.mcpServers ?? {}),
  };
}

/** The same checks and `${VAR}` substitution for servers passed in code instead of a file. */
export function resolveMcpServers(servers: McpServersInput, env: Env = process.env): McpServersConfig {
  const substituted = substituteEnvOrThrow(servers, env, ['mcpServers'], undefined, () => undefined);
  const parsed = mcpServersSchema.safeParse(substituted);
  if (!parsed.success) {
    throw schemaError(
      parsed.error.issues.map((issue) => ({ ...issue, path: ['mcpServers', ...issue.path] })),
      undefined,
      () => undefined,
    );
  }
  return toServersConfig(parsed.data);
}

function substituteEnvOrThrow<T>(value: T, env: Env, path: JsonPath, file: string | undefined, locate: Locate): T {
  if (value === undefined) return value;
  const { value: result, missing } = substituteEnv(value, env, path);
  if (missing.length === 0) return result;
  const problems = missing.map(({ variable, path: at }) => ({
    path: formatJsonPath(at),
    message: `environment variable ${variable} is not set (referenced as \${${variable}})`,
    location: locate(at),
  }));
  throw new ToolsConfigError(file, problems);
}

function schemaError(issues: ZodIssue[], file: string | undefined, locate: Locate): ToolsConfigError {
  const problems: ToolsConfigProblem[] = explainIssues(issues, Object.keys(toolsFileSchema.shape)).map((issue) => ({
    path: formatJsonPath(issue.path),
    message: issue.message,
    location: locate(issue.path),
  }));
  return new ToolsConfigError(file, problems);
}

function toServersConfig(servers: Record<string, McpServerInput>): McpServersConfig {
  const result: McpServersConfig = {};
  for (const [name, server] of Object.entries(servers)) {
    if (server.disabled) continue;
    result[name] = toServerConfig(server);
  }
  return result;
}

function toServerConfig(server: McpServerInput): McpServerConfig {
  const settings = {
    ...(server.enableTools ? { enableTools: server.enableTools } : {}),
    ...(server.disableTools ? { disableTools: server.disableTools } : {}),
    ...(server.timeout !== undefined ? { timeoutMs: durationMs(server.timeout) } : {}),
    ...(server.permission ? { permission: server.permission } : {}),
    prefix: server.prefix ?? false,
  };
  if ('url' in server) {
    return { ...settings, transport: server.transport ?? 'http', url: server.url, headers: server.headers ?? {} };
  }
  return {
    ...settings,
    transport: 'stdio',
    command: server.command,
    args: server.args ?? [],
    env: server.env ?? {},
    ...(server.cwd ? { cwd: server.cwd } : {}),
  };
}
