const livePids = new Set<number>();
let installed = false;

function killAll(): void {
  for (const pid of livePids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  livePids.clear();
}

/**
 * Last resort so stdio MCP servers never outlive the worker: children still running when
 * the process exits are killed. The normal path is McpManager.close().
 */
export function trackChildProcess(pid: number): void {
  livePids.add(pid);
  if (!installed) {
    installed = true;
    process.on('exit', killAll);
  }
}

export function untrackChildProcess(pid: number): void {
  livePids.delete(pid);
}

export function trackedChildPids(): number[] {
  return [...livePids];
}

/** Waits up to `graceMs` for the children in `live` (emptied as they exit) to go, then kills the rest. */
export async function reapChildren(live: Set<number>, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (live.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const pid of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    untrackChildProcess(pid);
  }
  live.clear();
}
