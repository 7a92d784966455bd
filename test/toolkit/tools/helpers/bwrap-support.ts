import { spawnSync } from 'node:child_process';
import { bubblewrapArgs } from '../../../../src/toolkit/tools/sandbox/bubblewrap';

function probe(): string | undefined {
  const result = spawnSync('bwrap', [...bubblewrapArgs('/tmp', '/'), '--', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (result.error) return `bwrap cannot be started (${(result.error as NodeJS.ErrnoException).code ?? result.error.message}); install the bubblewrap package`;
  if (result.status !== 0) return `bwrap cannot create its sandbox here: ${result.stderr.trim() || `exit ${result.status}`}`;
  return undefined;
}

/** Why the bubblewrap sandbox cannot run on this machine, or undefined when it can. Probed once at load time. */
export const bwrapUnavailable = probe();

/** `test` where bubblewrap works, otherwise `test.skip` with the reason printed. */
export function sandboxTest(name: string, fn: () => Promise<void>, timeout?: number): void {
  if (bwrapUnavailable) {
    test.skip(`${name} [skipped: ${bwrapUnavailable}]`, fn);
    console.warn(`Skipping sandbox test '${name}': ${bwrapUnavailable}`);
  } else {
    test(name, fn, timeout);
  }
}
