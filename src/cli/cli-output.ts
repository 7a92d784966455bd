import { colorEnabled, styleFor, type Style } from '../text/style';

/** Where CLI commands write; tests capture it instead of the process streams. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
  /** Colours for human-readable output; plain when absent. */
  style?: Style;
}

export const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  get style() {
    return styleFor(colorEnabled(process.stdout));
  },
};

export function printJson(output: CliOutput, value: unknown): void {
  output.out(JSON.stringify(value));
}
