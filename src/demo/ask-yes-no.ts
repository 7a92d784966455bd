import { createInterface } from 'node:readline/promises';

/** Ask on the terminal; anything but y/yes is a no. Without a terminal the answer is undefined. */
export async function askYesNo(question: string, signal?: AbortSignal): Promise<boolean | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return undefined;
  } finally {
    rl.close();
  }
}
