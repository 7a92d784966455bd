import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux), at 10 ms resolution. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds this process has used so far (the bench process runs the worker). */
export function selfCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU of this process and of the server around some work, in ms. */
export async function cpuAround<T>(serverPid: number, work: () => Promise<T>): Promise<{ value: T; workerMs: number; serverMs: number }> {
  const worker = selfCpuMs();
  const server = processCpuMs(serverPid);
  const value = await work();
  return { value, workerMs: selfCpuMs() - worker, serverMs: processCpuMs(serverPid) - server };
}
