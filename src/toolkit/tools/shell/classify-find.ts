import { dangerAmong, judgeReads, plain, type CommandContext } from './path-verdicts';
import type { ShellWord } from './shell-lexer';
import { criticalTarget, inspectPath } from './shell-paths';
import { askSafety, PASS, strictest, type Verdict } from './shell-verdict';

/**
 * find only reads, unless it deletes or runs commands (then its roots must not be critical
 * or outside the workspace, and the command it runs is judged) or prints into files.
 */
export function classifyFind(args: ShellWord[], ctx: CommandContext): Verdict {
  let split = args.findIndex((word) => word.text.startsWith('-') || word.text === '(' || word.text === '!');
  if (split === -1) split = args.length;
  const roots = split === 0 ? [plain('.')] : args.slice(0, split);
  const expression = args.slice(split).map((word) => word.text);
  const verdicts: Verdict[] = [];
  const danger = dangerAmong(roots, ctx.scope, "'find' searches a sensitive location");
  if (danger) verdicts.push(danger);
  const execAt = expression.findIndex((word) => ['-exec', '-execdir', '-ok', '-okdir'].includes(word));
  if (expression.includes('-delete') || execAt !== -1) {
    for (const root of roots) {
      const critical = criticalTarget(root, ctx.scope, false);
      if (critical) verdicts.push(askSafety(`'find' would delete or run commands on ${critical}`));
      else if (inspectPath(root, ctx.scope).outside) verdicts.push(askSafety(`'find' would delete or run commands on '${root.text}', which is outside the workspace`));
    }
    if (execAt !== -1) {
      const inner = args.slice(split + execAt + 1);
      const end = inner.findIndex((word) => word.text === ';' || word.text === '+');
      const command = (end === -1 ? inner : inner.slice(0, end)).map((word) => quoteForShell(word.text)).join(' ');
      verdicts.push(ctx.nested(command));
    }
    return strictest([...verdicts, PASS]);
  }
  if (expression.some((word) => /^-f(print0?|printf|ls)$/.test(word))) return strictest([...verdicts, PASS]);
  return strictest([...verdicts, judgeReads('find', roots, ctx)]);
}

function quoteForShell(text: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
