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

/** server-everything's streamable HTTP transport as a child process on a loopback port. */
export async function startEverythingHttp(port: number): Promise<HttpServerProcess> {
  const child: ChildProcess = spawn(EVERYTHING_BIN, ['streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen on ${port}: ${output}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on port')) {
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
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
