import { readdirSync, readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill(0); it is dead for our purposes.
  try {
    return !/\)\s+Z\s/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export async function waitFor(condition: () => boolean, timeoutMs = 10_000, stepMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return condition();
}

export interface ChildProcessInfo {
  pid: number;
  command: string;
}

/** Live MCP server processes whose parent is `parentPid` (this test process by default). */
export function mcpChildProcesses(parentPid = process.pid): ChildProcessInfo[] {
  const children: ChildProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== parentPid) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (/mcp-server|fault-server/.test(command)) children.push({ pid: Number(entry), command });
    } catch {
      // exited while we looked
    }
  }
  return children;
}
