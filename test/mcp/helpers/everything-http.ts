import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { EVERYTHING_BIN } from './servers';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface HttpServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const MODES = {
  http: { arg: 'streamableHttp', path: '/mcp', ready: 'listening on port' },
  sse: { arg: 'sse', path: '/sse', ready: 'running on port' },
};

/** server-everything's HTTP transports as a child process on a loopback port. */
export async function startEverythingHttp(port: number, transport: 'http' | 'sse' = 'http'): Promise<HttpServerProcess> {
  const mode = MODES[transport];
  const child: ChildProcess = spawn(EVERYTHING_BIN, [mode.arg], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen on ${port}: ${output}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(mode.ready)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}${mode.path}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
