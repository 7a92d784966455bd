import type { PermissionSettings } from '../common/permissions';
import { tryParseRule } from './rule';

const MODES = ['default', 'accept_edits', 'explore', 'bypass', 'dont_ask'];
const BEHAVIORS = ['allow', 'ask', 'deny'];

/** Every problem in the settings, one message each; empty when they are valid. */
export function validatePermissionSettings(settings: PermissionSettings): string[] {
  const problems: string[] = [];
  if (settings.mode !== undefined && !MODES.includes(settings.mode)) {
    problems.push(`Unknown permission mode '${settings.mode}' (expected one of ${MODES.join(', ')})`);
  }
  if (settings.default !== undefined && !BEHAVIORS.includes(settings.default)) {
    problems.push(`Unknown default permission '${settings.default}' (expected one of ${BEHAVIORS.join(', ')})`);
  }
  for (const list of ['allow', 'ask', 'deny'] as const) {
    for (const rule of settings[list] ?? []) {
      const parsed = tryParseRule(rule);
      if (!parsed.ok) problems.push(`${list}: ${parsed.error}`);
    }
  }
  return problems;
}
