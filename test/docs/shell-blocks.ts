import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT, type CodeBlock } from './markdown';

export const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);

export interface ShellOutcome {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * `durable-agent` and `npx durable-agent` on the PATH are this checkout's CLI (bin/durable-agent.cjs,
 * which runs the sources); any other `npx` would fetch from the registry, so it fails instead.
 */
function commandShims(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const cli = `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'durable-agent.cjs')}" "$@"\n`;
  const npx = '#!/bin/sh\nif [ "$1" = durable-agent ]; then shift; exec durable-agent "$@"; fi\necho "npx $*: the docs test runs only npx durable-agent" >&2\nexit 127\n';
  for (const [name, text] of [['durable-agent', cli], ['npx', npx]] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** The environment a reader of the docs has before configuring anything: none of this machine's Temporal, model or agent settings. */
function cleanEnvironment(bin: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEMPORAL_|OPENAI_|AGENT_|OTEL_|DEMO_)/.test(name)));
  return { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}`, NO_COLOR: '1' };
}

/**
 * Runs a shell block with bash (`set -euo pipefail`, so every command of it must succeed): in a
 * fresh empty folder, or at the repository's root when it is marked `<!-- run in the repository -->`.
 */
export async function runShellBlock(block: CodeBlock, timeoutMs = 120_000): Promise<ShellOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-agent-docs-sh-'));
  try {
    const bin = commandShims(dir);
    const cwd = block.marker?.kind === 'in-repository' ? ROOT : join(dir, 'work');
    mkdirSync(join(dir, 'work'));
    return await new Promise<ShellOutcome>((resolve) => {
      execFile('bash', ['-c', `set -euo pipefail\n${block.code}`], { cwd, env: cleanEnvironment(bin), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : `${error.signal ?? error.code ?? error.message}`) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
