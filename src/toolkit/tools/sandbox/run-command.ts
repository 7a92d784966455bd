import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { cleanEnv } from './clean-env';
import { isolatedCommand, type Isolation } from './isolation';
import { OutputCollector } from './output-collector';

export interface RunCommandOptions {
  command: string;
  /** Real path of the workspace (writable in the sandbox, HOME of the command). */
  workspace: string;
  /** Real path of the working folder, inside the workspace. */
  cwd: string;
  timeoutMs: number;
  isolation: Isolation;
  maxOutputChars: number;
  signal?: AbortSignal;
  /** Called every few seconds while the command runs. */
  onProgress?: () => void;
}

export interface CommandOutcome {
  exitCode: number | null;
  /** The signal that ended the command, if one did. */
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, capped, with a marker where it was cut. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
}

const PROGRESS_INTERVAL_MS = 5_000;
/** How long to wait for the output pipes after the process group was killed. */
const DRAIN_MS = 2_000;
const ANSI_ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g;

function shellPath(): string {
  return fs.existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

function presentable(text: string, total: number): string {
  const replacements = (text.match(/\uFFFD/g) ?? []).length;
  if (text.includes('\0') || replacements > text.length / 10) {
    return `[the command printed binary data (${total} characters); it is not shown. Pipe it through xxd or od to inspect it.]`;
  }
  return text.replace(ANSI_ESCAPE, '').replace(/\r\n/g, '\n');
}

/**
 * Run one command line with bash in its own process group, isolated as `isolation` says
 * (bubblewrap, a PID namespace or none), with a clean environment. On timeout, on abort and
 * after it exits, the whole group is killed, so no child it started in the background
 * outlives the call.
 */
export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  const shell = shellPath();
  const script = `exec 2>&1\n${options.command}`;
  const [file, args] = isolatedCommand(options.isolation, shell, script, options.workspace, options.cwd);

  return new Promise((resolve, reject) => {
    const collector = new OutputCollector(options.maxOutputChars);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let drain: NodeJS.Timeout | undefined;

    const child = spawn(file, args, {
      cwd: options.cwd,
      env: cleanEnv(options.workspace),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => collector.push(decoder.write(chunk)));
      stream.on('end', () => collector.push(decoder.end()));
    }

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const progress = options.onProgress ? setInterval(options.onProgress, PROGRESS_INTERVAL_MS) : undefined;
    const onAbort = (): void => {
      aborted = true;
      killGroup(child.pid);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    /** Settle once: stop the timers, forget the abort listener, kill whatever is left of the group. */
    const release = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      if (progress) clearInterval(progress);
      options.signal?.removeEventListener('abort', onAbort);
      killGroup(child.pid);
      return true;
    };

    const finish = (): void => {
      if (!release()) return;
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        output: presentable(collector.text(), collector.length),
        timedOut,
        aborted,
      });
    };

    child.on('error', (error) => {
      if (release()) reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup(child.pid);
      drain = setTimeout(finish, DRAIN_MS);
    });
    child.on('close', finish);
  });
}
