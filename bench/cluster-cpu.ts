import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the name: state is field 0, ppid 1, utime 11, stime 12, cutime 13, cstime 14.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const ticks = (fields: string[], from: number, to: number) => fields.slice(from, to + 1).reduce((sum, f) => sum + Number(f), 0);

/** CPU milliseconds (user + system, 10 ms resolution) a process has used so far, its threads included. */
export function ownCpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? (ticks(fields, 11, 12) * 1000) / TICKS_PER_SECOND : 0;
}

/**
 * The same for a process and its children: its own, its reaped children's, and its living
 * children's (PostgreSQL's backends are children of the postmaster, one per connection).
 */
export function treeCpuMs(pid: number): number {
  const own = statFields(pid);
  if (!own) return 0;
  let total = ticks(own, 11, 14);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === pid) total += ticks(fields, 11, 12);
  }
  return (total * 1000) / TICKS_PER_SECOND;
}

/** CPU of named groups of processes over some work, in ms per group; each group is read by its function. */
export async function cpuOfGroups<T>(groups: Record<string, () => number>, work: () => Promise<T>): Promise<{ value: T; ms: Record<string, number> }> {
  const read = () => Object.fromEntries(Object.entries(groups).map(([name, cpuMs]) => [name, cpuMs()]));
  const before = read();
  const value = await work();
  const after = read();
  return { value, ms: Object.fromEntries(Object.keys(groups).map((name) => [name, after[name]! - before[name]!])) };
}

/** The PID of a living child of this process whose command line contains `part`. */
export function childPid(part: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(statFields(entry)?.[1]) !== process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(part)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
