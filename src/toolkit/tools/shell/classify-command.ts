import * as path from 'node:path';
import {
  ASSIGNMENT,
  DECLARE_COMMANDS,
  DISK_COMMANDS,
  EDIT_COMMANDS,
  INTERPRETERS,
  isSensitiveVariable,
  PERMISSION_COMMANDS,
  POWER_COMMANDS,
  PRIVILEGE_COMMANDS,
  REMOVE_COMMANDS,
  SHELL_STATE_COMMANDS,
  SHELLS,
  SYSTEMCTL_POWER,
} from './command-sets';
import { hasGlob } from './expand-glob';
import { classifyFind } from './classify-find';
import { classifyGit } from './classify-git';
import { classifyProcessAccess } from './classify-process-access';
import { classifySed } from './classify-sed';
import { classifyInterpreter, classifyShell } from './classify-shell';
import { readOperands, type OperandSpec } from './operands';
import { dangerAmong, judgeReads, judgeRemoval, judgeWrites, plain, type CommandContext } from './path-verdicts';
import { READ_ONLY_COMMANDS } from './read-only-commands';
import type { ShellWord } from './shell-lexer';
import { criticalTarget, hasBraceExpansion, inspectPath } from './shell-paths';
import { allow, askSafety, PASS, type Verdict } from './shell-verdict';

const CHANGES_FILES = new Set(['rm', 'rmdir', 'unlink', 'shred', 'mv', 'cp', 'ln', 'chmod', 'chown', 'chgrp', 'touch', 'tee', 'dd', 'truncate', 'sed', 'mkdir']);
const WRAPPED = new Set([...CHANGES_FILES, ...REMOVE_COMMANDS, ...PERMISSION_COMMANDS, ...DISK_COMMANDS, ...POWER_COMMANDS, ...SHELLS, ...PRIVILEGE_COMMANDS, 'kill', 'systemctl', 'xargs', 'find']);
const KEYWORDS = new Set(['!', '{', '}', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', 'time', 'done', 'fi', 'esac', 'coproc']);
const HEADERS = new Set(['for', 'select', 'case', 'in']);

/** Skip a wrapper's own options (and `positional` leading operands); the rest is the command it runs. */
function unwrap(args: ShellWord[], valued: ReadonlySet<string>, positional = 0): ShellWord[] {
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith('-') && args[i]!.text !== '-') {
    if (args[i]!.text === '--') {
      i++;
      break;
    }
    if (valued.has(args[i]!.text)) i++;
    i++;
  }
  return args.slice(i + positional);
}

function classifyReadOnly(name: string, args: ShellWord[], ctx: CommandContext): Verdict | undefined {
  const spec = READ_ONLY_COMMANDS[name];
  if (!spec) return undefined;
  const parsed = readOperands(args, spec as OperandSpec);
  if (spec.writes?.(parsed)) return dangerAmong([...parsed.operands, ...parsed.optionPaths], ctx.scope, `'${name}' touches a sensitive file`) ?? PASS;
  if (spec.operands === 'none') return allow(`'${name}' is read-only`);
  const patternGiven = spec.patternOptions?.some((option) => parsed.options.some((o) => o === option || o.startsWith(`${option}=`)));
  const files = spec.operands === 'pattern' && !patternGiven ? parsed.operands.slice(1) : parsed.operands;
  return judgeReads(name, [...files, ...parsed.optionPaths], ctx);
}

function classifyDd(args: ShellWord[], ctx: CommandContext): Verdict {
  const value = (key: string): ShellWord | undefined => {
    const word = args.find((a) => a.text.startsWith(`${key}=`));
    return word && { ...word, text: word.text.slice(key.length + 1), unquoted: word.unquoted.slice(key.length + 1) };
  };
  const input = value('if');
  const output = value('of');
  const danger = input && dangerAmong([input], ctx.scope, "'dd' reads a sensitive location");
  if (danger) return danger;
  if (!output) return PASS;
  const verdict = judgeWrites('dd', [output], ctx);
  return verdict.level === 'allow' ? PASS : verdict;
}

/** The verdict for one simple command given as words (keywords and assignments included). */
export function classifyCommand(input: ShellWord[], ctx: CommandContext): Verdict {
  let words = input;
  while (words.length > 0 && !words[0]!.quoted && !words[0]!.escaped && KEYWORDS.has(words[0]!.text)) words = words.slice(1);
  if (words.length === 0) return allow('shell syntax only');
  if (!words[0]!.quoted && HEADERS.has(words[0]!.text)) return allow('loop or case header');

  let assigned = false;
  while (words.length > 0 && ASSIGNMENT.test(words[0]!.text) && ASSIGNMENT.test(words[0]!.unquoted)) {
    const name = ASSIGNMENT.exec(words[0]!.text)![1]!;
    if (isSensitiveVariable(name)) return askSafety(`setting ${name} changes which program runs or how it runs`);
    assigned = true;
    words = words.slice(1);
  }
  if (words.length === 0) return allow('variable assignment');

  const verdict = classifySimple(words, ctx);
  return assigned && verdict.level === 'allow' ? PASS : verdict;
}

function classifySimple(words: ShellWord[], ctx: CommandContext): Verdict {
  const command = words[0]!;
  if (command.quoted || command.escaped) return askSafety(`the command name '${command.text}' uses quotes or backslashes, which can hide what runs`);
  if (command.expansion) return askSafety(`the command name '${command.text}' comes from a variable`);
  if (/[*?{]/.test(command.unquoted) || (hasGlob(command.unquoted) && !['[', '[['].includes(command.text)) || hasBraceExpansion(command)) {
    return askSafety(`the command name '${command.text}' uses glob or brace expansion`);
  }
  const name = path.posix.basename(command.text);
  const args = words.slice(1);
  const texts = args.map((a) => a.text);

  const processAccess = classifyProcessAccess(name, args, ctx);
  if (processAccess) return processAccess;
  if (PRIVILEGE_COMMANDS.has(name)) return askSafety(`'${name}' runs a command with other privileges`);
  if (name === 'eval') return askSafety("'eval' runs a string as a command");
  if (name === 'exec') return args.length === 0 ? allow("'exec' with redirections only") : askSafety("'exec' replaces the shell with another command");
  if (name === 'function') return askSafety('the command defines a shell function');
  if (SHELL_STATE_COMMANDS.has(name)) return askSafety(`'${name}' changes how later commands are read or run`);
  if (name === 'set' || name === 'unset') return allow(`'${name}' only changes shell options or variables`);
  if (DECLARE_COMMANDS.has(name)) {
    if (texts.some((t) => /^-[a-zA-Z]*f/.test(t))) return askSafety(`'${name} -f' works with shell functions`);
    for (const arg of texts) {
      const match = ASSIGNMENT.exec(arg) ?? /^([A-Za-z_][A-Za-z0-9_]*)$/.exec(arg);
      if (match && isSensitiveVariable(match[1]!)) return askSafety(`setting ${match[1]} changes which program runs or how it runs`);
    }
    return allow(`'${name}' only sets variables`);
  }

  switch (name) {
    case 'env': {
      if (texts.some((t) => t === '-S' || t.startsWith('--split-string'))) return askSafety("'env -S' splits a string into a command");
      const rest = unwrap(args, new Set(['-u', '--unset', '-C', '--chdir']));
      if (texts.some((t) => t === '-C' || t.startsWith('--chdir'))) ctx.scope.cwd = undefined;
      return rest.length === 0 ? allow("'env' prints the (clean) environment") : classifyCommand(rest, ctx);
    }
    case 'nice':
      return classifyCommand(unwrap(args, new Set(['-n', '--adjustment'])), ctx);
    case 'nohup':
    case 'builtin':
      return args.length === 0 ? PASS : classifyCommand(unwrap(args, new Set()), ctx);
    case 'command':
      if (texts.some((t) => t === '-v' || t === '-V')) return allow("'command -v' only looks a command up");
      return args.length === 0 ? PASS : classifyCommand(unwrap(args, new Set()), ctx);
    case 'timeout':
      return classifyCommand(unwrap(args, new Set(['-s', '--signal', '-k', '--kill-after']), 1), ctx);
    case 'time':
      return classifyCommand(unwrap(args, new Set(['-f', '--format', '-o', '--output'])), ctx);
    case 'stdbuf':
      return classifyCommand(unwrap(args, new Set(['-i', '-o', '-e'])), ctx);
    case 'watch':
      return classifyCommand(unwrap(args, new Set(['-n', '--interval', '-d'])), ctx);
    case 'xargs': {
      const rest = unwrap(args, new Set(['-I', '-n', '-P', '-d', '-E', '-L', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs']));
      const inner = classifyCommand(rest.length > 0 ? rest : [plain('echo')], ctx);
      if (inner.level === 'ask') return inner;
      const program = rest[0] ? path.posix.basename(rest[0].text) : 'echo';
      if (CHANGES_FILES.has(program)) return askSafety(`'xargs ${program}' works on files named by its input, which cannot be checked`);
      return PASS;
    }
    case 'source':
    case '.':
      return dangerAmong(args, ctx.scope, `'${name}' loads a sensitive file`) ?? PASS;
    case 'cd':
    case 'pushd':
    case 'popd':
      return allow(`'${name}' only changes the working folder`);
    case 'git':
      return classifyGit(args, ctx);
    case 'find':
      return classifyFind(args, ctx);
    case 'sed':
      return classifySed(args, ctx);
    case 'dd':
      return classifyDd(args, ctx);
    case 'kill': {
      const last = texts[texts.length - 1];
      return last === '-1' || last === '1' ? askSafety("'kill' would signal every process or init") : PASS;
    }
    case 'systemctl':
      return texts.some((t) => SYSTEMCTL_POWER.has(t)) ? askSafety("'systemctl' would stop or restart the machine") : PASS;
  }

  if (SHELLS.has(name)) return classifyShell(name, args, ctx);
  if (INTERPRETERS.has(name) || /^python\d/.test(name)) return classifyInterpreter(name, args, ctx);
  if (name.startsWith('mkfs') || DISK_COMMANDS.has(name)) return askSafety(`'${name}' formats or repartitions a disk`);
  if (POWER_COMMANDS.has(name)) return askSafety(`'${name}' would shut down or restart the machine`);

  if (REMOVE_COMMANDS.has(name)) {
    const { operands } = readOperands(args);
    if (operands.length === 0) return PASS;
    const verdict = judgeRemoval(name, operands, ctx);
    return EDIT_COMMANDS.has(name) || verdict.level !== 'allow' ? verdict : PASS;
  }
  if (PERMISSION_COMMANDS.has(name)) {
    const parsed = readOperands(args);
    const byReference = parsed.options.some((o) => o.startsWith('--reference'));
    const targets = byReference ? parsed.operands : parsed.operands.slice(1);
    for (const target of targets) {
      const critical = criticalTarget(target, ctx.scope, false);
      if (critical) return askSafety(`'${name}' would change the permissions of ${critical}`);
    }
    const verdict = judgeWrites(name, targets, ctx);
    return verdict.level === 'allow' ? PASS : verdict;
  }
  if (name === 'ln') {
    const { operands } = readOperands(args, { valued: { '-t': 'path', '--target-directory': 'path', '-S': 'other' } });
    const links = judgeWrites('ln', operands.slice(-1), ctx);
    if (links.level === 'ask') return links;
    for (const target of operands.slice(0, -1)) {
      const facts = inspectPath(target, ctx.scope);
      if (facts.danger) return askSafety(`'ln' links to a sensitive file: ${facts.danger}`);
      if (facts.outside) return askSafety(`'ln' creates a link that leads outside the workspace ('${target.text}')`);
    }
    return PASS;
  }
  if (name === 'cp') {
    const parsed = readOperands(args, { valued: { '-t': 'path', '--target-directory': 'path', '-S': 'other' } });
    const byOption = parsed.options.some((o) => o === '-t' || o.startsWith('--target-directory'));
    const sources = byOption ? parsed.operands : parsed.operands.slice(0, -1);
    const destinations = byOption ? parsed.optionPaths : parsed.operands.slice(-1);
    if (destinations.length === 0) return PASS;
    const reads = dangerAmong(sources, ctx.scope, "'cp' copies a sensitive file");
    if (reads) return reads;
    const writes = judgeWrites('cp', destinations, ctx);
    return writes.level === 'allow' && !sources.every((word) => inspectPath(word, ctx.scope).inside) ? PASS : writes;
  }
  if (EDIT_COMMANDS.has(name)) {
    const parsed = readOperands(args, { valued: { '-t': 'path', '--target-directory': 'path', '-m': 'other', '--mode': 'other', '-d': 'other', '-r': 'path', '-S': 'other' } });
    const verdict = judgeWrites(name, [...parsed.operands, ...parsed.optionPaths], ctx);
    return parsed.operands.length === 0 && name !== 'tee' ? PASS : verdict;
  }

  const readOnly = classifyReadOnly(name, args, ctx);
  if (readOnly) return readOnly;

  const parsed = readOperands(args);
  const danger = dangerAmong([...parsed.operands, ...parsed.optionPaths], ctx.scope, `'${name}' uses a sensitive file`);
  return danger ?? embeddedCommand(args, ctx) ?? PASS;
}

/**
 * Unknown programs are often wrappers (`setsid rm ...`, `ionice -c3 dd ...`): when one of
 * the arguments names a command this check knows, the rest is judged as that command and
 * an ASK is kept.
 */
function embeddedCommand(args: ShellWord[], ctx: CommandContext): Verdict | undefined {
  for (let i = 0; i < args.length; i++) {
    const name = path.posix.basename(args[i]!.text);
    if (!WRAPPED.has(name) && !name.startsWith('mkfs')) continue;
    const verdict = classifyCommand(args.slice(i), ctx);
    if (verdict.level === 'ask') return verdict;
  }
  return undefined;
}
