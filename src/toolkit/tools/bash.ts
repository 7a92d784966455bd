import * as fs from 'node:fs';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { HarnessEnv } from './harness-env';
import { confinePath, workspaceRoot } from './paths/confine-path';
import { chooseSandbox } from './sandbox/choose-sandbox';
import { runCommand, type CommandOutcome } from './sandbox/run-command';
import { checkShellCommand } from './shell/check-shell-command';

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
export const MAX_SHELL_TIMEOUT_MS = 600_000;
export const MAX_SHELL_OUTPUT_CHARS = 30_000;

const input = z.object({
  command: z.string().min(1).describe('The bash command line to run'),
  timeout: z
    .number()
    .positive()
    .max(MAX_SHELL_TIMEOUT_MS / 1000)
    .optional()
    .describe(`Timeout in seconds (default ${DEFAULT_SHELL_TIMEOUT_MS / 1000}, at most ${MAX_SHELL_TIMEOUT_MS / 1000})`),
  cwd: z.string().min(1).optional().describe('Working folder, relative to the workspace. Default: the workspace'),
});

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function formatOutcome(outcome: CommandOutcome, timeoutMs: number): string {
  let header: string;
  if (outcome.timedOut) {
    header = `Exit code: 124 (timed out after ${seconds(timeoutMs)}; the command and everything it started were killed)`;
  } else if (outcome.exitCode !== null) {
    header = `Exit code: ${outcome.exitCode}`;
  } else {
    const signal = outcome.signal ?? 'SIGKILL';
    header = `Exit code: ${128 + (signalNumbers[signal] ?? 9)} (killed by ${signal})`;
  }
  return `${header}\n${outcome.output === '' ? '(no output)' : outcome.output}`;
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };

export function clampShellTimeout(ms: number): number {
  return Math.min(Math.max(ms, 1), MAX_SHELL_TIMEOUT_MS);
}

export function bashTool(env: HarnessEnv) {
  return defineTool({
    name: 'bash',
    description:
      'Run a bash command line in the workspace and return `Exit code: N` followed by its output ' +
      `(stdout and stderr together, cut to ${MAX_SHELL_OUTPUT_CHARS} characters). HOME is the workspace. ` +
      'Where the sandbox is available the command has no network, sees only the workspace and the system programs, and can write only the workspace. ' +
      `Default timeout ${DEFAULT_SHELL_TIMEOUT_MS / 1000} s; background processes are killed when the command ends.`,
    input,
    patternField: 'command',
    source: 'builtin',
    timeout: `${MAX_SHELL_TIMEOUT_MS / 1000 + 60}s`,
    heartbeatTimeout: '60s',
    permission: (i: z.infer<typeof input>, ctx) => checkShellCommand(i.command, { workspace: env.workspace, mode: ctx.mode, cwd: i.cwd }),
    async execute({ command, timeout, cwd }, ctx) {
      const root = workspaceRoot(env.workspace);
      const folder = cwd === undefined ? root : confinePath(root, cwd).real;
      if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`The working folder '${cwd}' does not exist.`);
      const isolation = await chooseSandbox(env.sandbox);
      const timeoutMs = timeout === undefined ? clampShellTimeout(env.shellTimeoutMs) : clampShellTimeout(timeout * 1000);
      const outcome = await runCommand({
        command,
        workspace: root,
        cwd: folder,
        timeoutMs,
        isolation,
        maxOutputChars: MAX_SHELL_OUTPUT_CHARS,
        signal: ctx.signal,
        onProgress: () => {
          try {
            ctx.heartbeat();
          } catch {
            // heartbeats are best effort
          }
        },
      });
      if (outcome.aborted) throw new Error('The command was cancelled; it and everything it started were killed.');
      return formatOutcome(outcome, timeoutMs);
    },
  });
}
