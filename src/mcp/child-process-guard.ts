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
