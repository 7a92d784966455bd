/** Where CLI commands write; tests capture it instead of the process streams. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export function printJson(output: CliOutput, value: unknown): void {
  output.out(JSON.stringify(value));
}
