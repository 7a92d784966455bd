import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';

/** What the model server process has served so far: requests answered, and its own time on them. */
export interface ModelServed {
  requests: number;
  ms: number;
}

export interface ModelServerProcess {
  baseURL: string;
  pid: number;
  /** The model server's own count and time so far, as it reports them (bench/model-server-child.ts). */
  served(): Promise<ModelServed>;
  /** The same once at least `requests` requests were served (a reply's end reaches the worker before its report here), or after `timeoutMs`. */
  servedAtLeast(requests: number, timeoutMs?: number): Promise<ModelServed>;
  close(): Promise<void>;
}

/** Starts bench/model-server-child.ts and resolves with its URL once it listens. */
export function startModelServerProcess(): Promise<ModelServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'model-server-child.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((served: ModelServed) => void)[] = [];
  return new Promise((resolve, reject) => {
    let out = '';
    let listening = false;
    child.stdout!.on('data', (data: Buffer) => {
      out += data;
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('served ')) {
          const [, requests, ms] = line.split(' ');
          waiting.shift()?.({ requests: Number(requests), ms: Number(ms) });
        } else if (!listening && line.startsWith('http')) {
          listening = true;
          const served = () =>
            new Promise<ModelServed>((answer) => {
              waiting.push(answer);
              child.stdin!.write('served\n');
            });
          resolve({
            baseURL: line.trim(),
            pid: child.pid!,
            served,
            async servedAtLeast(requests, timeoutMs = 2_000) {
              const until = performance.now() + timeoutMs;
              for (;;) {
                const now = await served();
                if (now.requests >= requests || performance.now() >= until) return now;
                await sleep(5);
              }
            },
            close: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
          });
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`the model server process exited (${code})`)));
  });
}
