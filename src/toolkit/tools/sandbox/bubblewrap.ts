import { spawn } from 'node:child_process';
import { systemMounts } from './bubblewrap-mounts';
import { cleanEnv } from './clean-env';

/**
 * bubblewrap arguments: the system's programs and libraries and a minimal /etc (read-only),
 * fresh /dev, /proc, /tmp and /var/tmp, the workspace writable at its real path, and a root
 * that is otherwise empty and read-only; every namespace unshared (no network, own PIDs), no
 * capabilities, and the sandbox dies with the worker. Nothing else of the machine (home
 * folders, other projects, files beside the workspace) exists inside.
 */
export function bubblewrapArgs(workspace: string, cwd: string): string[] {
  return [
    ...systemMounts(),
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--tmpfs', '/var/tmp',
    '--bind', workspace, workspace,
    '--remount-ro', '/',
    '--chdir', cwd,
    '--unshare-all',
    '--cap-drop', 'ALL',
    '--die-with-parent',
    '--new-session',
  ];
}

export type SandboxProbe = { ok: true } | { ok: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;
let probe: Promise<SandboxProbe> | undefined;

function runProbe(): Promise<SandboxProbe> {
  return new Promise((resolve) => {
    let stderr = '';
    let child;
    try {
      child = spawn('bwrap', [...bubblewrapArgs('/tmp', '/'), '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv('/') });
    } catch (error) {
      resolve({ ok: false, reason: (error as Error).message });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: error.code === 'ENOENT' ? 'bwrap is not installed (Debian/Ubuntu package: bubblewrap)' : error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: `bwrap cannot create its sandbox here: ${stderr.trim() || `exit code ${code}`}` });
    });
  });
}

/** Whether bubblewrap runs with our flags on this machine; probed once per process. */
export function probeBubblewrap(): Promise<SandboxProbe> {
  probe ??= runProbe();
  return probe;
}
