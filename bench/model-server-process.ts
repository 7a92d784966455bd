import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface ModelServerProcess {
  baseURL: string;
  close(): Promise<void>;
}

/** Starts bench/model-server-child.ts and resolves with its URL once it listens. */
export function startModelServerProcess(): Promise<ModelServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'model-server-child.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data: Buffer) => {
      out += data;
      const line = out.split('\n').find((l) => l.startsWith('http'));
      if (line) {
        resolve({
          baseURL: line.trim(),
          close: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`the model server process exited (${code})`)));
  });
}
