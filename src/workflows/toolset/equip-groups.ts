import type { AgentDescriptor } from '../../common/agent';
import type { ToolCallResult } from '../../common/contracts/tool-calls';
import type { Writing } from '../state';
import { apply } from '../effects';

export function describeActiveGroups(descriptor: AgentDescriptor, active: string[]): string {
  if (active.length === 0) return 'All tool groups are currently deactivated.';
  const lines = descriptor.groups.filter((g) => active.includes(g.name)).map((g) => `- ${g.name}: ${g.description}`);
  return [`The currently activated tool group(s): ${active.join(', ')}.`, ...lines].join('\n');
}

/** `reset_equipped_tools`: the list replaces the active set. Returns the new set or an error result. */
export function resetEquippedTools(
  descriptor: AgentDescriptor,
  rawArguments: string,
): { active: string[]; result: ToolCallResult } | { result: ToolCallResult } {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments || '{}');
  } catch {
    return { result: { content: 'Error: Invalid arguments: expected a JSON object with to_activate.', state: 'error' } };
  }
  const list = (args as { to_activate?: unknown })?.to_activate;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
    return { result: { content: 'Error: Missing required parameter: to_activate (an array of group names)', state: 'error' } };
  }
  const known = descriptor.groups.map((g) => g.name);
  const unknown = (list as string[]).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    return {
      result: {
        content: `Error: Tool group(s) ${unknown.map((n) => `'${n}'`).join(', ')} do not exist. Available groups: ${known.join(', ')}.`,
        state: 'error',
      },
    };
  }
  const active = known.filter((name) => (list as string[]).includes(name));
  return { active, result: { content: describeActiveGroups(descriptor, active), state: 'success' } };
}

/** The signal/CLI form: activate and deactivate by name; unknown names are reported back. */
export function changeGroups(
  descriptor: AgentDescriptor,
  active: string[],
  change: { activate?: string[]; deactivate?: string[] },
): { active: string[]; unknown: string[] } {
  const known = descriptor.groups.map((g) => g.name);
  const requested = [...(change.activate ?? []), ...(change.deactivate ?? [])];
  const unknown = requested.filter((name) => !known.includes(name));
  const next = known.filter(
    (name) => (active.includes(name) || (change.activate ?? []).includes(name)) && !(change.deactivate ?? []).includes(name),
  );
  return { active: next, unknown };
}

/** The run's active groups are now `active`: recorded as an event, so a fork knows them as they stood. */
export function noteGroups(state: Writing<'context'>, active: string[], by: 'model' | 'user'): void {
  state.activeGroups = active;
  apply(state, { events: [{ type: 'groups_changed', active, by }] });
}
