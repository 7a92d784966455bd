import type { SandboxSetting } from '../harness-env';
import { probeBubblewrap } from './bubblewrap';

let warned = false;

/**
 * Whether to run a command under bubblewrap. `bwrap` insists (an error when it cannot run),
 * `none` never sandboxes, `auto` sandboxes when bubblewrap works here and otherwise warns
 * once that the shell runs unsandboxed.
 */
export async function chooseSandbox(setting: SandboxSetting): Promise<boolean> {
  if (setting === 'none') return false;
  const probe = await probeBubblewrap();
  if (probe.ok) return true;
  if (setting === 'bwrap') throw new Error(`The bwrap sandbox was requested but cannot be used: ${probe.reason}.`);
  if (!warned) {
    warned = true;
    console.warn(`durable-agent: the bash tool is NOT sandboxed (${probe.reason}); commands run as plain child processes with a clean environment.`);
  }
  return false;
}
