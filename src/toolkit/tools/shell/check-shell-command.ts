import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PermissionDecision, PermissionMode } from '../../../common/permissions';
import { confinePath, workspaceRoot } from '../paths/confine-path';
import { classifyCommand } from './classify-command';
import { ASSIGNMENT } from './command-sets';
import { HARMLESS_DEVICES, judgeReads, judgeWrites, type CommandContext } from './path-verdicts';
import { mentionsProc, processPathDanger } from './process-paths';
import { lexShell, type ShellRedirect, type ShellSegment } from './shell-lexer';
import type { ShellScope } from './shell-paths';
import { allow, askSafety, PASS, strictest, type Verdict } from './shell-verdict';
import { suggestShellRule } from './suggest-shell-rule';

export interface ShellCheckOptions {
  workspace: string;
  mode: PermissionMode;
  /** Working folder of the command (relative to the workspace or absolute). Default: the workspace. */
  cwd?: string;
}

const MAX_NESTING = 3;
const PIPES = new Set(['|', '|&']);
const SEQUENTIAL = new Set(['&&', ';', '\n']);

function judgeRedirect(redirect: ShellRedirect, ctx: CommandContext): Verdict {
  const { op, target } = redirect;
  if (op.includes('<<')) return allow('here-document input');
  if (!target) return PASS;
  if (/[<>]&$/.test(op) && /^(\d+|-)$/.test(target.text)) return allow('descriptor duplication');
  if (op.endsWith('<') && !op.endsWith('<>')) return judgeReads('the redirection', [target], ctx);
  if (HARMLESS_DEVICES.test(target.text)) return allow(`output to ${target.text}`);
  return judgeWrites('the redirection', [target], ctx);
}

/** Any word of the command (its name, arguments, assignments, redirection targets) that reaches into /proc. */
function judgeProcessPaths(segment: ShellSegment, scope: ShellScope): Verdict | undefined {
  const nameAt = segment.words.findIndex((word) => !ASSIGNMENT.test(word.text));
  const words = [...segment.words, ...segment.redirects.flatMap((redirect) => (redirect.target ? [redirect.target] : []))];
  for (let i = 0; i < words.length; i++) {
    const danger = processPathDanger(words[i]!, scope, i === nameAt);
    if (danger) return askSafety(danger);
  }
  return undefined;
}

function nextCwd(segment: ShellSegment, following: string[] | undefined, scope: ShellScope): string | undefined {
  const [command, ...args] = segment.words;
  const target = args.find((word) => !word.text.startsWith('-'));
  if (!target) return command!.text === 'cd' && args.length === 0 ? scope.root : undefined;
  if (target.expansion || scope.cwd === undefined && !path.isAbsolute(target.text)) return undefined;
  const text = target.text;
  const destination = text === '~' || text.startsWith('~/') ? path.join(scope.root, text.slice(1)) : path.resolve(scope.cwd ?? '/', text);
  if (following?.length === 1 && following[0] === '&&') return destination;
  try {
    return fs.statSync(destination).isDirectory() ? destination : undefined;
  } catch {
    return undefined;
  }
}

function judgeLine(command: string, scope: ShellScope, mode: PermissionMode, depth: number): Verdict {
  if (depth > MAX_NESTING) return askSafety('shell commands nested too deeply to check');
  const lexed = lexShell(command);
  if (lexed.issues.length > 0) return askSafety(`the command uses ${lexed.issues.join('; ')}`);
  if (lexed.heredocs.some(mentionsProc)) return askSafety("a here-document names something in /proc, where the worker's environment and memory can be read");
  const verdicts: Verdict[] = [];
  lexed.segments.forEach((segment, index) => {
    const following = lexed.segments[index + 1]?.joiners;
    const ctx: CommandContext = {
      scope,
      mode,
      piped: segment.joiners.some((op) => PIPES.has(op)),
      nested: (inner) => judgeLine(inner, { ...scope }, mode, depth + 1),
    };
    if (segment.joiners.some((op) => op === ')' || op === '&')) scope.cwd = undefined;
    const processPaths = judgeProcessPaths(segment, scope);
    if (processPaths) verdicts.push(processPaths);
    for (const redirect of segment.redirects) verdicts.push(judgeRedirect(redirect, ctx));
    verdicts.push(segment.words.length > 0 ? classifyCommand(segment.words, ctx) : allow('redirection only'));
    const name = segment.words[0]?.text;
    if (name === 'cd' || name === 'pushd' || name === 'popd') {
      const inSubshell = ctx.piped || (following !== undefined && !following.every((op) => SEQUENTIAL.has(op)));
      scope.cwd = inSubshell || name === 'popd' ? undefined : nextCwd(segment, following, scope);
    }
  });
  return strictest(verdicts);
}

/**
 * The bash tool's own permission check. Injection forms and destructive commands → ASK as a
 * safety check (no rule or mode can skip it); plainly read-only commands on the workspace →
 * ALLOW; in accept_edits mode, file operations whose every target is inside the workspace →
 * ALLOW; anything else → undefined, for the permission rules to decide. Every part of a
 * `;` `&&` `||` `|` chain is judged and the strictest verdict wins.
 */
export function checkShellCommand(command: string, options: ShellCheckOptions): PermissionDecision | undefined {
  let root: string;
  try {
    root = workspaceRoot(options.workspace);
  } catch (error) {
    return { behavior: 'deny', safety: true, reason: (error as Error).message };
  }
  let cwd = root;
  if (options.cwd !== undefined) {
    try {
      cwd = confinePath(root, options.cwd).real;
    } catch (error) {
      return { behavior: 'deny', safety: true, reason: (error as Error).message };
    }
  }
  if (command.trim() === '') return undefined;
  const verdict = judgeLine(command, { root, cwd }, options.mode, 0);
  switch (verdict.level) {
    case 'allow':
      return { behavior: 'allow', reason: `Shell check: ${verdict.reason}.` };
    case 'pass':
      return undefined;
    case 'ask': {
      const rule = suggestShellRule(command);
      return {
        behavior: 'ask',
        reason: `Shell check: ${verdict.reason}.`,
        ...(verdict.safety ? { safety: true } : {}),
        ...(rule ? { suggestedRule: rule } : {}),
      };
    }
  }
}
