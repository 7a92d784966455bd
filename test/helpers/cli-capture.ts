import { linesInput } from '../../src/cli/cli-input';
import type { CliOutput } from '../../src/cli/cli-output';
import { runCli } from '../../src/cli/run-cli';

export interface CliRun {
  code: number;
  /** Lines written to stdout (multi-line writes split). */
  out: string[];
  err: string[];
}

/** Runs `durable-agent <argv>` in-process; `onLine` sees every stdout line as it is written; `typed` are the lines read as input. */
export async function runCliCaptured(argv: string[], onLine?: (line: string) => void, typed: string[] = []): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const output: CliOutput = {
    out: (text) => {
      for (const line of text.split('\n')) {
        out.push(line);
        onLine?.(line);
      }
    },
    err: (text) => err.push(...text.split('\n')),
  };
  const code = await runCli(argv, output, linesInput(typed));
  return { code, out, err };
}

/** Splits a printed command line as a POSIX shell would for plain words and "double" or 'single' quotes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(line.trim())) !== null) {
    if (match[1] !== undefined) words.push(match[1].replace(/\\(.)/g, '$1'));
    else if (match[2] !== undefined) words.push(match[2]);
    else words.push(match[3]);
  }
  return words;
}

/** The arguments after `npm run agent --` or `durable-agent` in a printed command. */
export function cliArgsOf(command: string): string[] {
  const words = splitCommandLine(command);
  const npm = words.findIndex((word, i) => word === '--' && words[i - 1] === 'agent' && (words[i - 2] === 'run' || (words[i - 2] === '-s' && words[i - 3] === 'run')));
  if (npm >= 0) return words.slice(npm + 1);
  const bin = words.indexOf('durable-agent');
  if (bin >= 0) return words.slice(bin + 1);
  throw new Error(`not a durable-agent command: ${command}`);
}
