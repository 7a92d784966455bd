import { createInterface } from 'node:readline';

/** Where interactive commands (`chat`) read what the person types; tests give lines instead. */
export interface CliInput {
  /** The next line, after showing `prompt` on a terminal; undefined once the input has ended. */
  line(prompt: string): Promise<string | undefined>;
  close(): void;
}

/** Lines of an async iterable (a readline interface, or a test's list). */
function fromLines(lines: AsyncIterator<string>, show: (prompt: string) => void, close: () => void): CliInput {
  return {
    async line(prompt) {
      show(prompt);
      const next = await lines.next();
      return next.done ? undefined : next.value;
    },
    close,
  };
}

/** stdin, line by line; the prompt shows only on a terminal. Created on first use. */
export function processInput(): CliInput {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  return fromLines(
    rl[Symbol.asyncIterator](),
    (prompt) => {
      if (!process.stdin.isTTY) return;
      rl.setPrompt(prompt);
      rl.prompt();
    },
    () => rl.close(),
  );
}

/** A fixed list of lines, as if typed one after the other. */
export function linesInput(lines: string[]): CliInput {
  const queue = [...lines];
  async function* iterate() {
    while (queue.length > 0) yield queue.shift()!;
  }
  return fromLines(iterate(), () => undefined, () => undefined);
}
