import * as fs from 'node:fs';

/** Whether a process still runs (a zombie waiting to be reaped counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A `sleep` duration no other process uses, to find the sleep again from outside: in a PID
 * namespace, `$!` is a number that means nothing to the test.
 */
export function uniqueSleep(): string {
  return `300.${process.pid}${String(Date.now() % 1_000_000).padStart(6, '0')}`;
}

/** PIDs (as this process sees them) of running processes with `argument` among their arguments. */
export function processesWith(argument: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.split('\0').includes(argument) && isRunning(Number(name))) found.push(Number(name));
  }
  return found;
}
