/**
 * The rule offered with an ASK: if a person remembers it, calls like this one are allowed
 * from then on. The suggestion always matches the call it was made for, and errs narrow.
 *
 * Commands (`patternKind: 'command'`):
 *   git push origin main   → bash(git push:*)       program and subcommand, for programs
 *                                                    that have subcommands (git, npm, docker…)
 *   npm run build -- --ci  → bash(npm run build:*)  script runners keep the script name
 *   ls -la src             → bash(ls:*)             other programs: the program name
 *   python x.py            → bash(python x.py)      interpreters and wrappers (sh, node,
 *                                                    sudo, xargs…) run anything: exact command
 *   git -C x status        → exact command          subcommand program without a plain subcommand
 *   a && b, FOO=1 a        → exact command          a prefix rule would never grant these
 * Paths (`patternKind: 'path'`):
 *   src/app/main.ts        → read_file(src/app/**)  the containing folder, recursively
 *   README.md, /x, a/../b  → exact path             root-level files and `..` paths
 * Otherwise (no kind, no value): the bare tool name.
 */
import type { PatternKind } from '../common/permissions';
import { joinSegments, pathSegments } from './path-segments';
import { escapePattern, formatRule } from './rule';
import { commandWords, hasControlSyntax } from './shell-command';

const SUBCOMMAND_PROGRAMS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'cargo', 'go', 'docker', 'kubectl', 'gh',
  'pip', 'pip3', 'poetry', 'uv', 'dotnet', 'mvn', 'gradle', 'brew', 'apt', 'apt-get',
  'terraform', 'helm', 'aws', 'gcloud', 'az', 'make',
]);
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SCRIPT_COMMANDS = new Set(['run', 'run-script', 'exec']);
const OPEN_ENDED_PROGRAMS = new Set([
  'sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'python', 'python2', 'python3', 'node', 'deno',
  'ruby', 'perl', 'php', 'lua', 'Rscript', 'sudo', 'su', 'doas', 'env', 'eval', 'exec',
  'xargs', 'nohup', 'nice', 'time', 'timeout', 'watch', 'ssh',
]);
const PLAIN_WORD = /^[A-Za-z][A-Za-z0-9_:.-]*$/;

export function suggestRule(toolName: string, patternValue?: string, kind?: PatternKind): string {
  if (patternValue === undefined || patternValue.trim() === '') return toolName;
  if (kind === 'command') return suggestCommandRule(toolName, patternValue.trim());
  if (kind === 'path') return suggestPathRule(toolName, patternValue);
  return toolName;
}

function suggestCommandRule(toolName: string, command: string): string {
  const exact = formatRule({ tool: toolName, pattern: { type: 'exact', value: command } });
  const words = commandWords(command);
  const program = words[0];
  if (hasControlSyntax(command) || program.includes('=') || OPEN_ENDED_PROGRAMS.has(program)) return exact;

  let length = 1;
  if (SUBCOMMAND_PROGRAMS.has(program)) {
    if (!isPlainWord(words[1])) return exact;
    length = 2;
    if (SCRIPT_RUNNERS.has(program) && SCRIPT_COMMANDS.has(words[1]) && isPlainWord(words[2])) length = 3;
  }
  return formatRule({ tool: toolName, pattern: { type: 'prefix', prefix: words.slice(0, length).join(' ') } });
}

function suggestPathRule(toolName: string, path: string): string {
  const segments = pathSegments(path);
  const folder = segments.slice(0, -1);
  const rootLevel = folder.length === 0 || (folder.length === 1 && folder[0] === '');
  if (rootLevel || segments.includes('..')) {
    return formatRule({ tool: toolName, pattern: { type: 'exact', value: joinSegments(segments) } });
  }
  return formatRule({ tool: toolName, pattern: { type: 'glob', glob: `${escapePattern(joinSegments(folder))}/**` } });
}

function isPlainWord(word: string | undefined): word is string {
  return word !== undefined && PLAIN_WORD.test(word);
}
