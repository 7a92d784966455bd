import type { PermissionBehavior, PermissionDecision, PermissionSettings } from '../common/permissions';
import type { ToolSpec } from '../common/tools';
import { evaluatePermission, findMatchingRule } from '../permissions';
import type { RegisteredAgent } from '../toolkit/agent-registry';
import { META_TOOL_NAME, metaToolSpec } from '../common/meta-tool';
import { groupsOf, metaToolEnabled } from '../workflows/toolset';

export type ToolOrigin =
  | { kind: 'builtin' }
  | { kind: 'code' }
  | { kind: 'mcp'; server: string; tool: string };

export interface ToolListing {
  name: string;
  description: string;
  source: ToolOrigin;
  /** The groups the tool belongs to; none means always offered. */
  groups: string[];
  readOnly: boolean;
  concurrencySafe: boolean;
  external: boolean;
  /** The tool's own permission (MCP: from its annotations and the server's `permission`), when it declares one. */
  toolPermission?: PermissionBehavior | 'dynamic';
  /**
   * What a call gets when no input-specific rule (like `bash(git:*)`) matches it: the agent's
   * name rules, mode and default together with the tool's own permission. 'dynamic' when the
   * tool decides per input and no rule decides before it.
   */
  permission: PermissionBehavior | 'dynamic';
  reason: string;
}

export interface AgentToolListing {
  agent: string;
  mode: string;
  tools: ToolListing[];
}

function origin(spec: ToolSpec): ToolOrigin {
  const { source } = spec;
  return source.kind === 'mcp' ? { kind: 'mcp', server: source.server, tool: source.toolName } : { kind: source.kind };
}

function defaultDecision(spec: ToolSpec, edits: boolean, settings: PermissionSettings): Pick<ToolListing, 'permission' | 'reason'> {
  if (spec.name === META_TOOL_NAME) return { permission: 'allow', reason: 'the workflow answers it itself' };
  const target = { toolName: spec.name };
  if (spec.permission === 'dynamic') {
    const deny = findMatchingRule(settings.deny, target, 'restrict');
    if (deny !== undefined) return { permission: 'deny', reason: `matched deny rule '${deny}'` };
    const ask = findMatchingRule(settings.ask, target, 'restrict');
    if (ask !== undefined) return { permission: 'ask', reason: `matched ask rule '${ask}'` };
    return { permission: 'dynamic', reason: 'the tool checks each call' };
  }
  const toolDecision: PermissionDecision | undefined = spec.permission
    ? { behavior: spec.permission, reason: `the tool declares '${spec.permission}'` }
    : undefined;
  const decision = evaluatePermission({
    tool: { name: spec.name, readOnly: spec.readOnly, edits },
    toolDecision,
    settings,
    sessionRules: [],
  });
  return { permission: decision.behavior, reason: decision.reason };
}

/** The tools a run of this agent would be offered (the meta tool included), as the CLI shows them. */
export function listAgentTools(agent: RegisteredAgent): AgentToolListing {
  const { descriptor } = agent;
  const specs = [...descriptor.tools];
  if (metaToolEnabled(descriptor)) specs.push(metaToolSpec(descriptor.groups.map((g) => g.name)));
  return {
    agent: descriptor.name,
    mode: descriptor.permissions.mode ?? 'default',
    tools: specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      source: origin(spec),
      groups: groupsOf(descriptor, spec.name),
      readOnly: spec.readOnly,
      concurrencySafe: spec.concurrencySafe,
      external: spec.external,
      ...(spec.permission ? { toolPermission: spec.permission } : {}),
      ...defaultDecision(spec, agent.toolkit.get(spec.name)?.edits ?? false, descriptor.permissions),
    })),
  };
}

/** `code`, `built-in`, or `MCP <server>` with the server's own name of the tool when it was renamed. */
export function describeOrigin(tool: Pick<ToolListing, 'name' | 'source'>): string {
  const { source } = tool;
  if (source.kind === 'mcp') return source.tool === tool.name ? `MCP ${source.server}` : `MCP ${source.server} (${source.tool})`;
  return source.kind === 'builtin' ? 'built-in' : 'code';
}
