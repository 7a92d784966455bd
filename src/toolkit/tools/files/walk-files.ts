import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export interface WalkEntry {
  /** Absolute path. */
  absolute: string;
  /** Relative to the folder the walk started in, posix separators. */
  relative: string;
  isFile: boolean;
  isSymlink: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Folder names not descended into (at any depth). */
  skipFolders?: ReadonlySet<string>;
  /** Stop after this many entries. */
  maxEntries?: number;
}

export const DEFAULT_SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/**
 * Every file below `start` (folders are descended into, not reported), in name order, the
 * files of a folder before those of its subfolders. Symbolic links are reported but never
 * followed, so a walk cannot loop or leave the tree.
 */
export async function* walkFiles(start: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const skip = options.skipFolders ?? DEFAULT_SKIPPED_FOLDERS;
  const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
  let seen = 0;
  const stack: string[] = [''];
  while (stack.length > 0) {
    if (options.signal?.aborted) throw new Error('Cancelled.');
    const relativeDir = stack.pop()!;
    let entries;
    try {
      entries = await fs.readdir(path.join(start, relativeDir), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of entries) {
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) subfolders.push(relative);
      } else {
        yield { absolute: path.join(start, relative), relative, isFile: entry.isFile(), isSymlink: entry.isSymbolicLink() };
      }
      if (++seen >= max) return;
    }
    for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i]!);
  }
}

/** The default skipped folders, except those the pattern names. */
export function skippedFolders(pattern: string): Set<string> {
  return new Set([...DEFAULT_SKIPPED_FOLDERS].filter((name) => !pattern.includes(name)));
}
