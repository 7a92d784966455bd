import { readOperands } from './operands';
import { dangerAmong, judgeReads, type CommandContext } from './path-verdicts';
import type { ShellWord } from './shell-lexer';
import { askSafety, PASS, type Verdict } from './shell-verdict';

const READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog', 'cat-file', 'grep', 'rev-list', 'merge-base', 'whatchanged']);
const LISTING = new Set(['branch', 'tag']);
const LIST_FLAGS = /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--sort=.*|--contains|--merged|--no-merged|--points-at|--format=.*|--color.*|--no-color|-n\d*)$/;
const WRITING_OPTIONS = /^(--output|--ext-diff|-O|--open-files-in-pager)/;
const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l', '--get-urlmatch', '--show-origin']);

/** Git's global options before the subcommand; `-C dir` moves, the rest are not judged. */
function splitGlobal(args: ShellWord[]): { sub?: ShellWord; rest: ShellWord[]; unjudged: boolean; chdir?: ShellWord } {
  let unjudged = false;
  let chdir: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (!text.startsWith('-')) return { sub: args[i], rest: args.slice(i + 1), unjudged, chdir };
    if (text === '-C') chdir = args[++i];
    else if (text === '--no-pager' || text === '-P' || text === '--no-optional-locks') continue;
    else {
      unjudged = true;
      if (text === '-c') i++;
    }
  }
  return { rest: [], unjudged };
}

/** `git status` and friends read; `git config` that writes is a safety matter; the rest passes. */
export function classifyGit(args: ShellWord[], ctx: CommandContext): Verdict {
  const { sub, rest, unjudged, chdir } = splitGlobal(args);
  const parsed = readOperands(rest);
  const files = [...parsed.operands, ...parsed.optionPaths];
  const danger = dangerAmong(chdir ? [chdir, ...files] : files, ctx.scope, "'git' touches a sensitive file");
  if (danger) return danger;
  if (!sub) return PASS;
  const name = sub.text;
  if (name === 'config') {
    if (parsed.options.some((o) => CONFIG_READS.has(o))) return unjudged ? PASS : judgeReads('git config', [], ctx);
    return askSafety("'git config' changes the git configuration, which can make git run commands");
  }
  if (unjudged || parsed.options.some((o) => WRITING_OPTIONS.test(o))) return PASS;
  const paths = chdir ? [chdir] : [];
  if (READ_ONLY.has(name)) return judgeReads(`git ${name}`, [...paths, ...files], ctx);
  if (LISTING.has(name) && parsed.options.every((o) => LIST_FLAGS.test(o))) {
    const listing = parsed.operands.length === 0 || parsed.options.some((o) => o === '-l' || o === '--list');
    if (listing) return judgeReads(`git ${name}`, paths, ctx);
  }
  if (name === 'remote' && parsed.options.every((o) => o === '-v' || o === '--verbose')) {
    if (parsed.operands.length === 0 || ['show', 'get-url'].includes(parsed.operands[0]!.text)) return judgeReads('git remote', paths, ctx);
  }
  return PASS;
}
