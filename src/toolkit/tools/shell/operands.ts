import type { ShellWord } from './shell-lexer';

export interface OperandSpec {
  /** Options whose value is the next word; 'path' values are checked like operands. */
  valued?: Record<string, 'path' | 'other'>;
}

export interface Operands {
  /** Words that are not options, in order (after `--` everything is an operand). */
  operands: ShellWord[];
  /** Values of options that name files (`-f file`, `--file=file`). */
  optionPaths: ShellWord[];
  /** Option words as written (`-rf`, `--in-place=.bak`). */
  options: string[];
}

function valueWord(from: ShellWord, text: string): ShellWord {
  return { ...from, text, unquoted: from.unquoted.includes('=') ? from.unquoted.slice(from.unquoted.indexOf('=') + 1) : from.unquoted };
}

/** Split arguments into options and operands, the way most GNU tools read them. */
export function readOperands(args: ShellWord[], spec: OperandSpec = {}): Operands {
  const result: Operands = { operands: [], optionPaths: [], options: [] };
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.text;
    if (endOfOptions || !text.startsWith('-') || text === '-') {
      result.operands.push(word);
      continue;
    }
    if (text === '--') {
      endOfOptions = true;
      continue;
    }
    result.options.push(text);
    const eq = text.indexOf('=');
    if (text.startsWith('--') && eq !== -1) {
      result.optionPaths.push(valueWord(word, text.slice(eq + 1)));
      continue;
    }
    const kind = spec.valued?.[text];
    if (kind && i + 1 < args.length) {
      i++;
      if (kind === 'path') result.optionPaths.push(args[i]!);
    }
  }
  return result;
}

/** Whether a short option letter appears in any cluster (`-rf` has r and f) or the long form is given. */
export function hasFlag(options: string[], letter: string, long?: string): boolean {
  return options.some(
    (option) =>
      (/^-[A-Za-z0-9]+$/.test(option) && option.slice(1).includes(letter)) ||
      (long !== undefined && (option === long || option.startsWith(`${long}=`))),
  );
}
