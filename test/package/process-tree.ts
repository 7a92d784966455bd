import { execFileSync } from 'node:child_process';

/** The processes below `pid` (its children, theirs, …) with their command lines, as `ps` lists them. */
export function descendants(pid: number): Array<{ pid: number; args: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const below = (parent: number): Array<{ pid: number; args: string }> =>
    rows.filter((row) => row.ppid === parent).flatMap((row) => [{ pid: row.pid, args: row.args }, ...below(row.pid)]);
  return below(pid);
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
