import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

export interface WorkerPoolOptions {
  size: number;
  /** The worker's environment: connection, task queue, model endpoint, agents module, bundle. */
  env: Record<string, string>;
  log: (line: string) => void;
}

/**
 * Worker processes of the project's own entry point (`durable-agent worker`) with default settings,
 * kept at `size`: one SIGKILLed at random is replaced by a new one.
 */
export class WorkerPool {
  private readonly workers = new Set<ChildProcess>();
  kills = 0;

  constructor(private readonly options: WorkerPoolOptions) {}

  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.size }, () => this.spawnOne()));
  }

  /** SIGKILLs one worker chosen at random, without warning, and starts its replacement. */
  async killOne(): Promise<void> {
    const victims = [...this.workers];
    const victim = victims[Math.floor(Math.random() * victims.length)];
    if (!victim) return;
    const gone = new Promise((resolve) => victim.once('exit', resolve));
    victim.kill('SIGKILL');
    await gone;
    this.kills += 1;
    this.options.log(`worker ${victim.pid} SIGKILLed`);
    await this.spawnOne();
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.workers].map(async (worker) => {
        const gone = new Promise((resolve) => worker.once('exit', resolve));
        worker.kill('SIGKILL');
        await gone;
      }),
    );
  }

  private spawnOne(): Promise<void> {
    // One process (no launcher in between), so SIGKILL really kills the worker.
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'worker'], {
      cwd: ROOT,
      env: { ...process.env, ...this.options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.workers.add(child);
    child.once('exit', () => this.workers.delete(child));
    return new Promise((resolve, reject) => {
      let output = '';
      const onData = (data: Buffer) => {
        output += data;
        if (output.includes('[durable-agent] worker for')) {
          child.stdout!.off('data', onData);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (data) => (output += data));
      child.once('exit', (code, signal) => {
        if (!output.includes('[durable-agent] worker for')) reject(new Error(`a chaos worker exited before it was ready (${code ?? signal}): ${output.slice(-2000)}`));
      });
    });
  }
}
