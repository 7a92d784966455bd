import * as path from 'node:path';
import { HARMLESS_PROC_FILES, isProcessInformation } from '../paths/dangerous-paths';
import { braceVariants } from './brace-variants';
import { expandGlob, hasGlob } from './expand-glob';
import type { ShellWord } from './shell-lexer';
import type { ShellScope } from './shell-paths';

/** Entries of /proc/<pid> that expose a process's environment, memory, open files or threads. */
const PROCESS_FILE_NAMES = ['environ', 'mem', 'maps', 'smaps', 'pagemap', 'cmdline', 'auxv', 'fd', 'fdinfo', 'map_files', 'root', 'cwd', 'exe', 'task'];

const EXPANSION = /\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!_-]/g;

/**
 * `/proc/...` written anywhere in a word, also inside code for an interpreter (`open("/proc/1/environ")`)
 * or after `=`, `:` or `../`; a folder named proc inside a relative path does not count.
 */
const PROC_MENTION = new RegExp(`(?:^|[^\\w.~/-])(?:/|\\.\\./)(?:\\.{0,2}/)*proc/+(?!(?:${HARMLESS_PROC_FILES.join('|')})(?:$|[^\\w./-]))(?=\\S)`, 'i');

/** Whether a text (a here-document, code for an interpreter) names something in /proc. */
export function mentionsProc(text: string): boolean {
  return text.split('\n').some((line) => PROC_MENTION.test(line));
}

/**
 * The texts a word may become: as written, with its variables empty, with them standing for
 * a process number; braces expanded; the value after `=` (`X=/proc`, `--dir=/proc`) too.
 */
function variants(word: ShellWord): string[] {
  const forms = word.expansion ? [word.text, word.text.replace(EXPANSION, ''), word.text.replace(EXPANSION, '1')] : [word.text];
  const values = forms.flatMap((form) => (form.includes('=') ? [form, form.slice(form.indexOf('=') + 1)] : [form]));
  return [...new Set(values.flatMap(braceVariants))];
}

function absoluteOf(text: string, scope: ShellScope): string | undefined {
  if (text === '~' || text.startsWith('~/')) return path.join(scope.root, text.slice(1));
  if (path.isAbsolute(text)) return text;
  return scope.cwd === undefined ? undefined : path.resolve(scope.cwd, text);
}

/** A component as a pattern: variables and glob characters stand for anything. Undefined when it is only variables. */
function componentPattern(component: string): RegExp | undefined {
  let source = '';
  let substance = false;
  for (const token of component.split(/(\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!_-]|\[[^\]]*\]|[*?])/)) {
    if (token === '') continue;
    if (token.startsWith('$')) {
      source += '.*';
      continue;
    }
    substance = true;
    if (token === '*') source += '.*';
    else if (token === '?') source += '.';
    else if (token.startsWith('[') && token.length > 2) source += `[${token.slice(1, -1).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
    else source += token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  if (!substance) return undefined;
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return /.*/;
  }
}

function namesProcessFile(text: string): string | undefined {
  for (const component of text.split('/')) {
    const pattern = componentPattern(component);
    const name = pattern && PROCESS_FILE_NAMES.find((candidate) => pattern.test(candidate));
    if (name) return name;
  }
  return undefined;
}

/**
 * Why a word may make a command read process information (the worker's environment with its
 * API keys, its memory, ...): it names /proc (also spelled with quotes, variables, braces or
 * globs), resolves there from the working folder, or, where the shell alone decides what it
 * names (a variable, a working folder this check cannot know), it names a file that only
 * /proc/<pid> has (`environ`, `mem`, ...). `commandName` skips that last rule for the program name.
 */
export function processPathDanger(word: ShellWord, scope: ShellScope, commandName = false): string | undefined {
  const shown = `'${word.text}'`;
  let uncertain = word.expansion;
  for (const text of variants(word)) {
    if (PROC_MENTION.test(text) || (path.isAbsolute(text) && isProcessInformation(text))) {
      return `${shown} reaches /proc, where the worker's environment and memory can be read`;
    }
    const absolute = absoluteOf(text, scope);
    if (absolute === undefined) {
      uncertain = true;
      continue;
    }
    if (isProcessInformation(absolute)) return `${shown} resolves to ${absolute}, where the worker's environment and memory can be read`;
    if (hasGlob(word.unquoted)) {
      const matches = expandGlob(absolute, '/');
      if (matches === undefined) uncertain = true;
      else if (matches.some((match) => isProcessInformation(match))) return `${shown} matches files in /proc, where the worker's environment and memory can be read`;
    }
  }
  if (!uncertain || commandName) return undefined;
  const name = braceVariants(word.text).map(namesProcessFile).find(Boolean);
  return name ? `${shown} may name the '${name}' of a process in /proc: its location is decided when the command runs` : undefined;
}
