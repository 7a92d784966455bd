import { readdirSync, readFileSync } from 'node:fs';
import { clusterStatus } from '../../../scripts/cluster/cluster.cjs';
import { clusterDir } from './cluster-env';

function status() {
  const dir = clusterDir();
  const found = dir ? clusterStatus({ dir }) : null;
  if (!found) throw new Error('no cluster state: run the tier with npm run test:cluster');
  return found;
}

/** The PID the cluster's state file records for one of its processes ('postgres', 'frontend', …). */
export function clusterPid(name: string): number {
  const entry = status().processes[name];
  if (!entry) throw new Error(`the cluster has no process '${name}'`);
  return entry.pid;
}

/** The cluster's processes that are not running (by the PID and command the state file records). */
export function downProcesses(): string[] {
  return Object.entries(status().processes)
    .filter(([, process]) => !process.running)
    .map(([name]) => name);
}

/** Whether `pid` runs (a zombie does not). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The PIDs whose parent is `pid` (PostgreSQL's backends and helper processes, for its postmaster). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command's closing parenthesis: state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Waits until none of `pids` runs (up to `timeoutMs`); resolves with those still running then. */
export async function waitUntilAllGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter((pid) => isRunning(pid));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
