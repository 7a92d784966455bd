import * as fs from 'node:fs';
import * as path from 'node:path';

const MAX_LINK_HOPS = 40;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The real location a path would reach, also when it does not exist yet: symbolic links are
 * followed (dangling ones too, so a link to a missing file outside cannot be used to create
 * that file), and missing trailing parts are appended to the real path of the nearest
 * existing ancestor.
 */
export function realPathOf(target: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw new Error(`Too many levels of symbolic links at '${target}'.`);
  try {
    return fs.realpathSync.native(target);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  const realParent = realPathOf(parent, hops);
  const candidate = path.join(realParent, path.basename(target));
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(candidate);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (stat?.isSymbolicLink()) {
    return realPathOf(path.resolve(realParent, fs.readlinkSync(candidate)), hops + 1);
  }
  return candidate;
}

/** Whether `candidate` is `root` or lies below it (both absolute and normalized). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '') return true;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
