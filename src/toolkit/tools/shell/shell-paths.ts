import * as os from 'node:os';
import * as path from 'node:path';
import { dangerousPathReason } from '../paths/dangerous-paths';
import { isInside, realPathOf } from '../paths/real-path';
import { expandGlob, hasGlob } from './expand-glob';
import type { ShellWord } from './shell-lexer';

/** Where the words of a command are evaluated. */
export interface ShellScope {
  /** The workspace's real path; also HOME for the command. */
  root: string;
  /** The working folder at this point of the command line; undefined once unknown. */
  cwd: string | undefined;
}

export interface PathFacts {
  /** Why it is a sensitive location, when it is one. */
  danger?: string;
  /** Known to be inside the workspace (also after following symbolic links). */
  inside: boolean;
  /** Known to reach outside the workspace (lexically or through a symbolic link). */
  outside: boolean;
}

const SYSTEM_FOLDERS = /^\/(bin|boot|dev|etc|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var)(\/|$)/;
const MATCH_ALL = /^(\.?\*+|\*\.\*|\.\?\*|\[!.\]\*)$/;

export function hasBraceExpansion(word: ShellWord): boolean {
  return /\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.unquoted);
}

function startsWithTilde(word: ShellWord): boolean {
  return word.unquoted.startsWith('~') && word.text.startsWith('~');
}

/** The absolute path a plain word names, or undefined when the shell would make it something else. */
function absoluteOf(text: string, tilde: boolean, scope: ShellScope): string | undefined {
  if (tilde) {
    if (text === '~' || text.startsWith('~/')) return path.join(scope.root, text.slice(1));
    return undefined;
  }
  if (path.isAbsolute(text)) return path.normalize(text);
  return scope.cwd === undefined ? undefined : path.resolve(scope.cwd, text);
}

function dangerOf(absolute: string, root: string): string | undefined {
  return isInside(root, absolute) ? dangerousPathReason(path.relative(root, absolute) || '.') : dangerousPathReason(absolute);
}

function factsOfAbsolute(absolute: string, scope: ShellScope): PathFacts {
  let real: string;
  try {
    real = realPathOf(absolute);
  } catch {
    return { danger: dangerOf(absolute, scope.root), inside: false, outside: !isInside(scope.root, absolute) };
  }
  const inside = isInside(scope.root, absolute) && isInside(scope.root, real);
  return { danger: dangerOf(absolute, scope.root) ?? dangerOf(real, scope.root), inside, outside: !inside };
}

/** What a word used as a path refers to: sensitive or not, inside the workspace or not. */
export function inspectPath(word: ShellWord, scope: ShellScope): PathFacts {
  const lexicalDanger = dangerousPathReason(word.text.replace(/^~\/?/, ''));
  const unknown = { danger: lexicalDanger, inside: false, outside: false };
  if (word.expansion || hasBraceExpansion(word)) return unknown;
  const tilde = startsWithTilde(word);
  if (hasGlob(word.unquoted)) {
    const base = tilde ? absoluteOf(word.text, true, scope) : absoluteOf(word.text, false, scope);
    if (base === undefined) return unknown;
    const matches = expandGlob(base, '/');
    if (matches === undefined) return unknown;
    if (matches.length > 0) {
      const facts = matches.map((match) => factsOfAbsolute(match, scope));
      return {
        danger: lexicalDanger ?? facts.find((f) => f.danger)?.danger,
        inside: facts.every((f) => f.inside),
        outside: facts.some((f) => f.outside),
      };
    }
  }
  if (tilde && !(word.text === '~' || word.text.startsWith('~/'))) return { ...unknown, outside: true };
  const absolute = absoluteOf(word.text, tilde, scope);
  if (absolute === undefined) return unknown;
  const facts = factsOfAbsolute(absolute, scope);
  return { ...facts, danger: lexicalDanger ?? facts.danger };
}

function criticalFolder(absolute: string, scope: ShellScope, workspaceItself: boolean): string | undefined {
  const depth = absolute.split('/').filter(Boolean).length;
  if (depth === 0) return 'the file system root';
  if (depth === 1) return `the top-level folder ${absolute}`;
  if (absolute === scope.root) return workspaceItself ? 'the whole workspace' : undefined;
  if (isInside(absolute, scope.root)) return 'a folder that holds the workspace';
  if (path.basename(absolute) === '.git') return 'the git repository';
  if (isInside(scope.root, absolute)) return undefined;
  if (isInside(absolute, os.homedir())) return 'a home folder';
  if (SYSTEM_FOLDERS.test(absolute)) return `the system folder ${absolute}`;
  return undefined;
}

/**
 * Why removing (or recursively changing) what the word names would be destructive beyond
 * ordinary files: the root, a top-level or system folder, a home folder, the workspace
 * itself (unless `workspaceItself` is false: for commands that only act on what matches
 * inside it) or a folder above it, everything in one of those (`/*`, `~/*`, `*`), or a target
 * the shell computes (variables, brace expansion) and so cannot be checked.
 */
export function criticalTarget(word: ShellWord, scope: ShellScope, workspaceItself = true): string | undefined {
  const shown = `'${word.text}'`;
  if (word.expansion) return `${shown} (a variable, so the target cannot be checked)`;
  if (hasBraceExpansion(word)) return `${shown} (brace expansion, so the targets cannot be checked)`;
  const text = word.text.length > 1 ? word.text.replace(/\/+$/, '') : word.text;
  const tilde = startsWithTilde(word);
  if (tilde) {
    if (!(text === '~' || text.startsWith('~/'))) return `${shown} (another user's home folder)`;
    if (text.slice(1).split('/').filter(Boolean).length <= 1) return `${shown} (the home folder or everything in it)`;
  }
  const parts = text.split('/');
  const last = parts[parts.length - 1]!;
  const matchAll = hasGlob(word.unquoted) && MATCH_ALL.test(last);
  const folderText = matchAll ? parts.slice(0, -1).join('/') || (text.startsWith('/') ? '/' : '.') : text;
  const folder = absoluteOf(folderText, tilde, scope);
  if (folder === undefined) {
    if (matchAll || /^\.\.?(\/|$)/.test(folderText)) return `${shown} (relative to a working folder that cannot be known here)`;
    return undefined;
  }
  const candidates = [folder];
  try {
    candidates.push(realPathOf(folder));
  } catch {
    // a path that cannot be resolved is judged by its spelling alone
  }
  for (const candidate of candidates) {
    const reason = criticalFolder(candidate, scope, workspaceItself);
    if (reason) return `${shown} (${matchAll ? 'everything in ' : ''}${reason})`;
  }
  if (hasGlob(word.unquoted)) {
    const matches = expandGlob(folder, '/');
    if (matches === undefined) return `${shown} (too many matches to check)`;
    for (const match of matches) {
      const reason = criticalFolder(match, scope, workspaceItself);
      if (reason) return `${shown} (it matches ${reason})`;
    }
  }
  return undefined;
}
