import { hasFlag, readOperands } from './operands';
import { dangerAmong, type CommandContext } from './path-verdicts';
import type { ShellWord } from './shell-lexer';
import { askSafety, PASS, type Verdict } from './shell-verdict';

/** `sh -c '...'` is judged as the command line it runs; piping into a shell that reads stdin asks. */
export function classifyShell(name: string, args: ShellWord[], ctx: CommandContext): Verdict {
  const commandFlag = args.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word.text));
  if (commandFlag !== -1) {
    const script = args[commandFlag + 1];
    if (!script) return PASS;
    if (script.expansion) return askSafety(`'${name} -c' runs a command built from a variable`);
    return ctx.nested(script.text);
  }
  const { operands } = readOperands(args);
  const readsStdin = operands.length === 0 || operands[0]!.text === '-' || hasFlag(args.map((a) => a.text), 's');
  if (ctx.piped && readsStdin) return askSafety(`piping into '${name}' runs whatever the previous command prints (e.g. a downloaded script)`);
  return dangerAmong(operands, ctx.scope, `'${name}' runs a sensitive file`) ?? PASS;
}

/** Piping into an interpreter that reads its program from stdin asks, like piping into a shell. */
export function classifyInterpreter(name: string, args: ShellWord[], ctx: CommandContext): Verdict {
  const { operands } = readOperands(args);
  const inline = args.some((a) => ['-c', '-e', '-E', '--eval', '-p', '--print', '-r'].includes(a.text));
  if (ctx.piped && !inline && (operands.length === 0 || operands[0]!.text === '-')) {
    return askSafety(`piping into '${name}' runs whatever the previous command prints (e.g. a downloaded script)`);
  }
  return dangerAmong(operands, ctx.scope, `'${name}' uses a sensitive file`) ?? PASS;
}
