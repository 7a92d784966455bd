import type { SandboxSetting } from '../harness-env';
import { probeBubblewrap } from './bubblewrap';
import type { Isolation } from './isolation';
import { probePidNamespace } from './pid-namespace';

let warned = false;

function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  console.warn(`durable-agent: ${message}`);
}

/** Bubblewrap is not used: a PID namespace where the machine allows it, else a plain child process. */
async function withoutBubblewrap(why: string): Promise<Isolation> {
  const namespace = await probePidNamespace();
  if (namespace.ok) {
    if (why) warnOnce(`the bash tool is NOT sandboxed (${why}); commands run with a clean environment in their own PID namespace, so they cannot see the worker's process, but they can reach the network and write outside the workspace.`);
    return { kind: 'pid-namespace', prefix: namespace.prefix };
  }
  warnOnce(
    `the bash tool is NOT sandboxed (${why || "sandbox 'none'"}) and gets no PID namespace either (${namespace.reason}); ` +
      "commands run as plain child processes with a clean environment, and only the shell check keeps them from reading the worker's /proc entry.",
  );
  return { kind: 'plain' };
}

/**
 * How to isolate a command. `bwrap` insists (an error when bubblewrap cannot run), `none`
 * skips bubblewrap, `auto` uses it when it works here; without it, a PID namespace where the
 * machine allows one. A one-time warning says what a command gets when it is less than
 * bubblewrap (with `none`: only when there is no PID namespace either).
 */
export async function chooseSandbox(setting: SandboxSetting): Promise<Isolation> {
  if (setting === 'none') return withoutBubblewrap('');
  const probe = await probeBubblewrap();
  if (probe.ok) return { kind: 'bubblewrap' };
  if (setting === 'bwrap') throw new Error(`The bwrap sandbox was requested but cannot be used: ${probe.reason}.`);
  return withoutBubblewrap(probe.reason);
}
