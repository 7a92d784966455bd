import type { PermissionDecision } from '../../../common/permissions';
import { confinePath } from './confine-path';
import { dangerousPathReason } from './dangerous-paths';

/**
 * The own permission check of a file tool for one path: outside the workspace → DENY,
 * a sensitive file or folder (also when reached through a link) → ASK; both are safety
 * decisions that neither rules nor modes can override.
 */
export function checkPathAccess(root: string, input: string, action: string): PermissionDecision | undefined {
  let confined;
  try {
    confined = confinePath(root, input);
  } catch (error) {
    return { behavior: 'deny', safety: true, reason: (error as Error).message };
  }
  const danger = dangerousPathReason(confined.relative) ?? dangerousPathReason(confined.realRelative);
  if (danger) return { behavior: 'ask', safety: true, reason: `${action}: ${danger}.` };
  return undefined;
}
