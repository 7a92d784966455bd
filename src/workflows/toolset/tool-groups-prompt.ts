import type { AgentDescriptor } from '../../common/agent';
import { META_TOOL_NAME } from '../../common/meta-tool';
import { metaToolEnabled } from './tool-visibility';

/**
 * A paragraph telling the model which tool groups are active and, when it may switch them,
 * which it can enable. Empty when the agent has no groups.
 */
export function toolGroupsPrompt(descriptor: AgentDescriptor, activeGroups: string[]): string {
  if (descriptor.groups.length === 0) return '';
  const line = (g: { name: string; description: string }) => `- ${g.name}: ${g.description}`;
  const active = descriptor.groups.filter((g) => activeGroups.includes(g.name));
  const inactive = descriptor.groups.filter((g) => !activeGroups.includes(g.name));
  const lines = ['## Tool groups'];
  if (active.length > 0) lines.push('Active tool groups (their tools are available now):', ...active.map(line));
  else lines.push('No tool group is active.');
  if (metaToolEnabled(descriptor) && inactive.length > 0) {
    lines.push(
      `Inactive tool groups; to use one, call ${META_TOOL_NAME} with every group that should be active:`,
      ...inactive.map(line),
    );
  }
  return lines.join('\n');
}
