import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '..', '..', '..');

export interface CodecServerProcess {
  /** What `codec-server --json` printed first. */
  started: { url: string; host: string; port: number; corsOrigins: string[]; token: boolean; currentKey: string };
  stderr(): string;
  /** SIGTERM to this child (by its pid); resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** `durable-agent codec-server --port 0 --json <args>` from the sources, in a process of its own. */
export async function startCodecServerProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CodecServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', join(ROOT, 'src', 'cli', 'main.ts'), 'codec-server', '--port', '0', '--json', ...args],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const firstLine = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => done(line));
    void exited.then((code) => fail(new Error(`codec-server exited with ${code} before it printed anything: ${stderr}`)));
  });
  return {
    started: JSON.parse(firstLine) as CodecServerProcess['started'],
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
