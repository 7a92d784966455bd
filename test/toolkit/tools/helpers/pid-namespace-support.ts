import { spawnSync } from 'node:child_process';
import { PID_NAMESPACE_CHECK, pidNamespaceCandidates } from '../../../../src/toolkit/tools/sandbox/pid-namespace';

function probe(): string | undefined {
  const candidates = pidNamespaceCandidates();
  if (candidates.length === 0) return 'util-linux unshare is not available';
  const reasons: string[] = [];
  for (const prefix of candidates) {
    const result = spawnSync(prefix[0]!, [...prefix.slice(1), '/bin/sh', '-c', PID_NAMESPACE_CHECK], { encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0) return undefined;
    reasons.push(result.stderr.trim() || String(result.error ?? `exit ${result.status}`));
  }
  return `unshare cannot create a PID namespace here: ${reasons.join('; ')}`;
}

/** Why a command cannot get its own PID namespace on this machine, or undefined when it can. Probed once at load time. */
export const pidNamespaceUnavailable = probe();

/** `test` where PID namespaces work, otherwise `test.skip` with the reason printed. */
export function pidNamespaceTest(name: string, fn: () => Promise<void>, timeout?: number): void {
  if (pidNamespaceUnavailable) {
    test.skip(`${name} [skipped: ${pidNamespaceUnavailable}]`, fn);
    console.warn(`Skipping PID namespace test '${name}': ${pidNamespaceUnavailable}`);
  } else {
    test(name, fn, timeout);
  }
}
