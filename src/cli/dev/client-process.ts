import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface ClientProcess {
  pid: number;
  /** Its exit code (128 + the signal's number when a signal ended it). */
  exited: Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const SIGNAL_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGKILL: 137 };

/** The project's client program in a process of its own: TypeScript through tsx (a dependency of this package), given `args`. */
export function startClient(file: string, args: readonly string[], env: NodeJS.ProcessEnv): ClientProcess {
  const loader = /\.[cm]?tsx?$/.test(file) ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [];
  const child = spawn(process.execPath, [...loader, file, ...args], { stdio: ['inherit', 'inherit', 'inherit'], env });
  const exited = new Promise<number>((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => resolve(code ?? SIGNAL_CODES[signal ?? ''] ?? 1));
  });
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  return {
    pid: child.pid,
    exited,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
