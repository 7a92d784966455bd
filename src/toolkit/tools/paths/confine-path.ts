import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, realPathOf } from './real-path';

/** A path the tools may use: inside the workspace, also after following symbolic links. */
export interface ConfinedPath {
  /** The real location (symbolic links resolved); use this for the file operation. */
  real: string;
  /** Relative to the workspace as written (posix separators, '.' for the root). */
  relative: string;
  /** Relative to the workspace after following symbolic links. */
  realRelative: string;
}

export class WorkspaceEscapeError extends Error {
  override readonly name = 'WorkspaceEscapeError';
}

/** The workspace's real path; it must exist, be a folder and not be the file system root. */
export function workspaceRoot(workspace: string): string {
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(workspace));
  } catch {
    throw new Error(`The workspace folder '${workspace}' does not exist.`);
  }
  if (!fs.statSync(real).isDirectory()) throw new Error(`The workspace '${workspace}' is not a folder.`);
  if (path.dirname(real) === real) throw new Error('The workspace cannot be the file system root.');
  return real;
}

function toPosix(relative: string): string {
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/**
 * Resolve a path the model gave (relative to `base`, itself inside the workspace, or
 * absolute) and make sure the location it reaches, after following symbolic links, is
 * inside the workspace. Throws a WorkspaceEscapeError that says which rule it broke.
 */
export function confinePath(root: string, input: string, base: string = root): ConfinedPath {
  if (input.includes('\0')) throw new WorkspaceEscapeError(`Access refused: the path '${input}' contains a NUL character.`);
  if (input === '~' || input.startsWith('~/')) {
    throw new WorkspaceEscapeError(`Access refused: '${input}' starts with '~', which is not expanded here. Use a path relative to the workspace (${root}).`);
  }
  const lexical = path.resolve(base, input);
  const real = realPathOf(lexical);
  if (!isInside(root, real)) {
    const how = isInside(root, lexical)
      ? `leads outside the workspace through a symbolic link (to ${real})`
      : path.isAbsolute(input)
        ? `is an absolute path outside the workspace (${root})`
        : `uses '..' to leave the workspace (${root})`;
    throw new WorkspaceEscapeError(`Access refused: '${input}' ${how}. Only paths inside the workspace can be used.`);
  }
  const relative = isInside(root, lexical) ? path.relative(root, lexical) : path.relative(root, real);
  return { real, relative: toPosix(relative), realRelative: toPosix(path.relative(root, real)) };
}
