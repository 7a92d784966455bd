import { hasFlag, readOperands } from './operands';
import { dangerAmong, judgeReads, judgeWrites, type CommandContext } from './path-verdicts';
import { isPlainSedScript } from './sed-script';
import type { ShellWord } from './shell-lexer';
import { PASS, type Verdict } from './shell-verdict';

/** sed with a plain script reads (or, with -i, edits its files); any other script is left to the rules. */
export function classifySed(args: ShellWord[], ctx: CommandContext): Verdict {
  const parsed = readOperands(args, { valued: { '-e': 'other', '-f': 'path', '-l': 'other', '--expression': 'other', '--file': 'path' } });
  const inPlace = hasFlag(parsed.options.filter((o) => !o.startsWith('--')), 'i') || parsed.options.some((o) => o.startsWith('--in-place'));
  const scriptByOption = parsed.options.some((o) => ['-e', '-f', '--expression', '--file'].includes(o) || o.startsWith('--expression=') || o.startsWith('--file='));
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) if (['-e', '--expression'].includes(args[i]!.text) && args[i + 1]) scripts.push(args[i + 1]!.text);
  const files = scriptByOption ? parsed.operands : parsed.operands.slice(1);
  if (!scriptByOption && parsed.operands[0]) scripts.push(parsed.operands[0].text);
  const plainScript = scripts.length > 0 && scripts.every(isPlainSedScript) && !parsed.options.some((o) => o === '-f' || o.startsWith('--file'));
  const danger = dangerAmong([...files, ...parsed.optionPaths], ctx.scope, inPlace ? "'sed -i' changes a sensitive file" : "'sed' reads a sensitive file");
  if (danger) return danger;
  if (!plainScript) return PASS;
  return inPlace ? judgeWrites('sed -i', files, ctx) : judgeReads('sed', files, ctx);
}
