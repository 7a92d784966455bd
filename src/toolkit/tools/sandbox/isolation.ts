import { bubblewrapArgs } from './bubblewrap';

/**
 * How a bash command is isolated from the worker. Every path starts it with a clean
 * environment (PATH, HOME, LANG: no API keys) and in its own process group.
 *
 * - `bubblewrap`: only system programs, libraries and a minimal /etc are visible (read-only),
 *   besides the workspace (writable) and fresh /dev, /proc and /tmp; no network; own PID
 *   namespace, so the worker's /proc entry does not exist; no capabilities.
 * - `pid-namespace` (bubblewrap cannot run, or is turned off): util-linux `unshare` gives the
 *   command its own PID namespace and a fresh /proc, so the worker's /proc/<pid>/environ, mem,
 *   ... are invisible (the shell is process 1 there and sees PPID 0), and everything the
 *   command starts dies with it. A command that would be root there loses CAP_SYS_ADMIN, so it
 *   cannot unmount that /proc. The file system and the network are the worker's.
 * - `plain` (neither works): an ordinary child process of the worker, as the same user, so it
 *   could read the worker's /proc entry.
 *
 * Without bubblewrap, the shell check (which asks before anything reads /proc) and the PID
 * namespace are the guards: no Node API makes the worker non-dumpable, and no other user is
 * available to run commands as. On the plain path only the check remains.
 */
export type Isolation = { kind: 'bubblewrap' } | { kind: 'pid-namespace'; prefix: string[] } | { kind: 'plain' };

/** The program and arguments that run `shell -c script` with the given isolation. */
export function isolatedCommand(isolation: Isolation, shell: string, script: string, workspace: string, cwd: string): [string, string[]] {
  switch (isolation.kind) {
    case 'bubblewrap':
      return ['bwrap', [...bubblewrapArgs(workspace, cwd), '--', shell, '-c', script]];
    case 'pid-namespace':
      return [isolation.prefix[0]!, [...isolation.prefix.slice(1), shell, '-c', script]];
    case 'plain':
      return [shell, ['-c', script]];
  }
}
