import type { AgentDescriptor } from '../../common/agent';
import type { ToolSpec } from '../../common/tools';

/** The tool part of a rule: `refund` of `refund`, `bash` of `bash(git push:*)`. */
function ruleTool(rule: string): string {
  const open = rule.indexOf('(');
  return (open < 0 ? rule : rule.slice(0, open)).trim();
}

/**
 * Whether the permission engine might ask a person about a call of this tool, judged from what
 * the run recorded (the tool's declared permission, the agent's settings), leaning to yes: a tool
 * with a check of its own, a default of ask, or an ask rule that names it or has a wildcard.
 */
export function mayAsk(descriptor: AgentDescriptor, spec: ToolSpec): boolean {
  if (spec.permission === 'ask' || spec.permission === 'dynamic') return true;
  const settings = descriptor.permissions;
  if (settings.default === 'ask') return true;
  return (settings.ask ?? []).some((rule) => {
    const tool = ruleTool(rule);
    return tool === spec.name || /[*?]/.test(tool);
  });
}
