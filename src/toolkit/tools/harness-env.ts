import type { PermissionCheckContext } from '../define-tool';
import type { PermissionDecision } from '../../common/permissions';
import { checkPathAccess } from './paths/check-path-access';
import { workspaceRoot } from './paths/confine-path';

export type SandboxSetting = 'auto' | 'bwrap' | 'none';

/** What every harness tool shares. */
export interface HarnessEnv {
  /** The workspace as configured; resolved to its real path on each call. */
  workspace: string;
  sandbox: SandboxSetting;
  shellTimeoutMs: number;
}

/** Largest text a file tool returns to the model. */
export const MAX_TOOL_OUTPUT_CHARS = 30_000;

/** The own permission check of a tool whose input names one path. */
export function pathPermission(env: HarnessEnv, action: string, pathOf: (input: any) => string | undefined) {
  return (input: any, _ctx: PermissionCheckContext): PermissionDecision | undefined => {
    let root: string;
    try {
      root = workspaceRoot(env.workspace);
    } catch (error) {
      return { behavior: 'deny', safety: true, reason: (error as Error).message };
    }
    return checkPathAccess(root, pathOf(input) ?? '.', action);
  };
}
