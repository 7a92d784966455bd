import type { PermissionMode } from '../../../common/permissions';
import type { ShellWord } from './shell-lexer';
import { criticalTarget, inspectPath, type ShellScope } from './shell-paths';
import { allow, askSafety, PASS, type Verdict } from './shell-verdict';

export interface CommandContext {
  scope: ShellScope;
  mode: PermissionMode;
  /** The command reads another command's output through a pipe. */
  piped: boolean;
  /** Judge a nested command line (`sh -c '...'`). */
  nested(command: string): Verdict;
}

export const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+|full|random|urandom)$/;

function label(name: string): string {
  return name.startsWith('the ') ? name : `'${name}'`;
}

export function plain(text: string): ShellWord {
  return { text, unquoted: '', quoted: false, escaped: false, expansion: false };
}

/** The sensitive location a word names, also inside `HEAD:.env`, `--file=.env`, `@.env`. */
export function wordDanger(word: ShellWord, scope: ShellScope): string | undefined {
  const direct = inspectPath(word, scope).danger;
  if (direct) return direct;
  for (const separator of [':', '=', '@']) {
    const at = word.text.lastIndexOf(separator);
    if (at === -1 || at === word.text.length - 1) continue;
    const danger = inspectPath({ ...plain(word.text.slice(at + 1)), expansion: word.expansion }, scope).danger;
    if (danger) return danger;
  }
  return undefined;
}

export function dangerAmong(words: ShellWord[], scope: ShellScope, what: string): Verdict | undefined {
  for (const word of words) {
    const danger = wordDanger(word, scope);
    if (danger) return askSafety(`${what}: ${danger}`);
  }
  return undefined;
}

export function judgeReads(name: string, paths: ShellWord[], ctx: CommandContext): Verdict {
  const danger = dangerAmong(paths, ctx.scope, `${label(name)} reads a sensitive file`);
  if (danger) return danger;
  if (paths.every((word) => inspectPath(word, ctx.scope).inside)) return allow(`${label(name)} only reads files of the workspace`);
  return PASS;
}

/**
 * A write to files: a device, a sensitive file or a place outside the workspace → ASK
 * (safety); all inside the workspace → allowed in accept_edits mode; otherwise the rules decide.
 */
export function judgeWrites(name: string, targets: ShellWord[], ctx: CommandContext): Verdict {
  for (const target of targets) {
    if (!target.expansion && /^\/dev\//.test(target.text) && !HARMLESS_DEVICES.test(target.text)) {
      return askSafety(`${label(name)} writes to the device ${target.text}`);
    }
  }
  const danger = dangerAmong(targets, ctx.scope, `${label(name)} changes a sensitive file`);
  if (danger) return danger;
  const facts = targets.map((word) => inspectPath(word, ctx.scope));
  const outside = targets.find((_, i) => facts[i]!.outside);
  if (outside) return askSafety(`${label(name)} changes '${outside.text}', which is outside the workspace`);
  if (ctx.mode === 'accept_edits' && targets.length > 0 && facts.every((f) => f.inside)) {
    return allow(`${label(name)} only changes files inside the workspace (accept_edits mode)`);
  }
  return PASS;
}

export function judgeRemoval(name: string, targets: ShellWord[], ctx: CommandContext): Verdict {
  for (const target of targets) {
    const critical = criticalTarget(target, ctx.scope);
    if (critical) return askSafety(`${label(name)} would remove ${critical}`);
  }
  return judgeWrites(name, targets, ctx);
}

