import * as path from 'node:path';
import { hasFlag, readOperands } from './operands';
import type { CommandContext } from './path-verdicts';
import type { ShellWord } from './shell-lexer';
import { askSafety, type Verdict } from './shell-verdict';

/** ps option letters whose value is the next word (`-eo etime`: a format, not the `e` flag). */
const PS_VALUED = /^-?[A-Za-z]*[oOpqUtk]$|^-[A-Za-z]*[uGgCs]$/;
const DEBUGGERS = new Set(['gdb', 'lldb', 'strace', 'ltrace', 'perf', 'bpftrace']);
const ALWAYS_INSPECT = new Set(['gcore', 'pmap', 'pstack', 'gstack', 'procdump']);
const GREPS = new Set(['grep', 'egrep', 'fgrep', 'zgrep']);
const RECURSIVE_SEARCHES = new Set(['rg', 'ag', 'ack']);

/**
 * `ps e` (BSD style, also hidden in `auxe` or `-aux`-like clusters that procps reads as BSD)
 * and `ps -E` print the environment of every process, the worker's API keys included.
 */
function psShowsEnvironments(args: ShellWord[]): boolean {
  const short: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text.startsWith('--')) continue;
    short.push(text);
    if (PS_VALUED.test(text)) i++;
  }
  if (short.some((word) => !word.startsWith('-') && word.includes('e'))) return true;
  if (short.some((word) => word.includes('E'))) return true;
  return short.some((word) => word.includes('e')) && short.some((word) => word.includes('x'));
}

/** `-p PID` and the like; gdb and lldb also take the PID after the program (`gdb prog 1234`). */
function attaches(name: string, args: ShellWord[]): boolean {
  const texts = args.map((word) => word.text);
  if (texts.some((t) => /^(-p\d*|--pid(=.*)?|--attach-pid(=.*)?|--attach-name(=.*)?)$/.test(t) || t === 'attach')) return true;
  return (name === 'gdb' || name === 'lldb') && readOperands(args).operands.slice(1).some((word) => /^\d+$/.test(word.text) || word.expansion);
}

/** Whether a recursive search starts at the root (or somewhere this check cannot know), so it walks through /proc. */
function searchesFromRoot(name: string, args: ShellWord[], ctx: CommandContext): boolean {
  const texts = args.map((word) => word.text);
  const recursive =
    RECURSIVE_SEARCHES.has(name) ||
    (GREPS.has(name) && (hasFlag(texts, 'r') || hasFlag(texts, 'R') || texts.some((t) => /^(--recursive|--dereference-recursive|--directories=recurse)$/.test(t))));
  if (!recursive) return false;
  const { operands } = readOperands(args, { valued: { '-e': 'other', '-f': 'other', '-m': 'other', '-A': 'other', '-B': 'other', '-C': 'other', '-g': 'other', '-t': 'other', '-T': 'other', '-j': 'other', '-M': 'other' } });
  const patternGiven = texts.some((t) => t === '-e' || t === '-f' || t.startsWith('--regexp') || t.startsWith('--file'));
  const folders = patternGiven ? operands : operands.slice(1);
  const roots = folders.length === 0 ? ['.'] : folders.map((word) => (word.expansion ? undefined : word.text));
  return roots.some((root) => {
    if (root === undefined) return true;
    if (!path.isAbsolute(root) && ctx.scope.cwd === undefined) return true;
    return path.resolve(ctx.scope.cwd ?? '/', root) === '/';
  });
}

/**
 * Commands that read other processes (their environment, memory or files) through tools
 * rather than paths, or that change mounts (and so could uncover the worker's /proc).
 * Undefined when the command does none of that.
 */
export function classifyProcessAccess(name: string, args: ShellWord[], ctx: CommandContext): Verdict | undefined {
  if (name === 'ps' && psShowsEnvironments(args)) return askSafety("'ps' with the e flag prints the environment of other processes, the worker's API keys included");
  if (ALWAYS_INSPECT.has(name)) return askSafety(`'${name}' reads the memory or mappings of a process`);
  if (DEBUGGERS.has(name) && attaches(name, args)) return askSafety(`'${name}' attaches to a running process and can read its memory`);
  if (name === 'umount' || (name === 'mount' && args.length > 0)) return askSafety(`'${name}' changes what the file system shows (it could uncover the worker's /proc)`);
  if (searchesFromRoot(name, args, ctx)) return askSafety(`'${name}' searches recursively from the root or an unknown folder, through /proc and the worker's environment`);
  return undefined;
}
