import type { AgentDescriptor } from '../../common/agent';
import type { ToolCall } from '../../common/messages';
import type { ToolSpec } from '../../common/tools';
import { META_TOOL_NAME, metaToolSpec } from '../../common/meta-tool';

export function groupsOf(descriptor: AgentDescriptor, toolName: string): string[] {
  return descriptor.groups.filter((g) => g.tools.includes(toolName)).map((g) => g.name);
}

/** A tool is visible when it is in no group or in at least one active group. */
export function isToolVisible(descriptor: AgentDescriptor, activeGroups: string[], toolName: string): boolean {
  const groups = groupsOf(descriptor, toolName);
  return groups.length === 0 || groups.some((g) => activeGroups.includes(g));
}

export function metaToolEnabled(descriptor: AgentDescriptor): boolean {
  return descriptor.metaTool && descriptor.groups.length > 0;
}

export function visibleTools(descriptor: AgentDescriptor, activeGroups: string[]): ToolSpec[] {
  const tools = descriptor.tools.filter((t) => isToolVisible(descriptor, activeGroups, t.name));
  if (metaToolEnabled(descriptor)) tools.push(metaToolSpec(descriptor.groups.map((g) => g.name)));
  return tools;
}

export type CallRoute = 'meta' | 'not_found' | 'unauthorized' | 'worker';

/** Decided in the workflow from the recorded descriptor; only `worker` calls go to an activity. */
export function routeCall(descriptor: AgentDescriptor, activeGroups: string[], call: ToolCall): CallRoute {
  if (call.name === META_TOOL_NAME && metaToolEnabled(descriptor)) return 'meta';
  if (!descriptor.tools.some((t) => t.name === call.name)) return 'not_found';
  if (!isToolVisible(descriptor, activeGroups, call.name)) return 'unauthorized';
  return 'worker';
}

export function specOf(descriptor: AgentDescriptor, toolName: string): ToolSpec | undefined {
  return descriptor.tools.find((t) => t.name === toolName);
}
