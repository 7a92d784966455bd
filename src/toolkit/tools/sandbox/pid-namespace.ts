import { spawn } from 'node:child_process';
import { cleanEnv } from './clean-env';
import { findSystemProgram } from './find-program';

export type PidNamespaceProbe = { ok: true; prefix: string[] } | { ok: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;
/** In its own PID namespace the shell is process 1 and its parent is invisible (PPID 0). */
export const PID_NAMESPACE_CHECK = 'test "$$" -eq 1 && test "$PPID" -eq 0';
let probe: Promise<PidNamespaceProbe> | undefined;

/**
 * The ways to start a command in a new PID namespace with a fresh /proc, most fitting first:
 * as root without a user namespace, else in a user namespace mapped to the same user
 * (util-linux 2.38+) or to root. Whenever the command would be root in there, setpriv takes
 * CAP_SYS_ADMIN out of its bounding set, so it cannot unmount the fresh /proc and uncover the
 * worker's; a command that is not root there has no capabilities anyway.
 */
export function pidNamespaceCandidates(): string[][] {
  const unshare = findSystemProgram('unshare');
  if (!unshare || process.platform !== 'linux') return [];
  const setpriv = findSystemProgram('setpriv');
  const dropAdmin = setpriv ? [setpriv, '--bounding-set=-sys_admin', '--inh-caps=-sys_admin', '--'] : [];
  const root = process.getuid?.() === 0;
  const namespaces = ['--fork', '--pid', '--mount-proc'];
  const sameUser = [unshare, '--user', '--map-current-user', ...namespaces, '--', ...(root ? dropAdmin : [])];
  const mappedRoot = [unshare, '--user', '--map-root-user', ...namespaces, '--', ...dropAdmin];
  return root ? [[unshare, ...namespaces, '--', ...dropAdmin], sameUser, mappedRoot] : [sameUser, mappedRoot];
}

function attempt(prefix: string[]): Promise<{ ok: boolean; reason: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(prefix[0]!, [...prefix.slice(1), '/bin/sh', '-c', PID_NAMESPACE_CHECK], { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv('/') });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, reason: stderr.trim() || `exit code ${code}` });
    });
  });
}

async function runProbe(): Promise<PidNamespaceProbe> {
  const ways = pidNamespaceCandidates();
  if (ways.length === 0) return { ok: false, reason: 'util-linux unshare is not available' };
  const reasons: string[] = [];
  for (const prefix of ways) {
    const result = await attempt(prefix);
    if (result.ok) return { ok: true, prefix };
    reasons.push(result.reason);
  }
  return { ok: false, reason: `unshare cannot create a PID namespace here: ${[...new Set(reasons)].join('; ')}` };
}

/**
 * The program and arguments that start a command in its own PID namespace with a fresh
 * /proc, when this machine allows it; probed once per process.
 */
export function probePidNamespace(): Promise<PidNamespaceProbe> {
  probe ??= runProbe();
  return probe;
}
