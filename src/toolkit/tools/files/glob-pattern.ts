import { fileGlobMatcher } from '../../../common/glob';

/**
 * The file tools' patterns: `**` any number of folders, `*` and `?` within one name, `[abc]` /
 * `[!abc]` classes, `{a,b}` alternatives (the project's glob engine, src/common/glob.ts). Matching
 * is case-sensitive and names starting with a dot are matched like any other.
 */
export function filePatternMatcher(glob: string): (relativePath: string) => boolean {
  return fileGlobMatcher(glob, { dot: true });
}

/** Patterns are relative to the folder searched and never climb out of it. */
export function checkGlobPattern(pattern: string): void {
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new Error(`The pattern '${pattern}' must be relative and must not contain '..'; set path to search another folder of the workspace.`);
  }
}
