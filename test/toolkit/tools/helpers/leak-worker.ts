import { harnessTools } from '../../../../src/toolkit/tools/harness-tools';
import type { SandboxSetting } from '../../../../src/toolkit/tools/harness-env';
import { chooseSandbox } from '../../../../src/toolkit/tools/sandbox/choose-sandbox';
import { runCommand } from '../../../../src/toolkit/tools/sandbox/run-command';
import { findTool, run } from './call-tool';

interface Job {
  workspace: string;
  /** 'plain': no isolation at all, to show what the commands would do without it. */
  sandbox: SandboxSetting | 'plain';
  commands: string[];
}

async function runPlain(command: string, workspace: string): Promise<string> {
  const outcome = await runCommand({ command, workspace, cwd: workspace, timeoutMs: 20_000, isolation: { kind: 'plain' }, maxOutputChars: 30_000 });
  return outcome.output;
}

/**
 * A stand-in for the worker, started by the tests with a secret in its initial environment
 * (what /proc/<pid>/environ shows). It runs each command through the real bash tool without
 * its permission check, as if every call were approved, and prints what came back as JSON.
 */
async function main(): Promise<void> {
  const { workspace, sandbox, commands } = JSON.parse(process.argv[2]!) as Job;
  const outputs: string[] = [];
  if (sandbox === 'plain') {
    for (const command of commands) outputs.push(await runPlain(command, workspace));
    process.stdout.write(JSON.stringify({ pid: process.pid, isolation: 'plain', outputs }));
    return;
  }
  const bash = findTool(harnessTools({ workspace, sandbox }), 'bash');
  const isolation = (await chooseSandbox(sandbox)).kind;
  for (const command of commands) outputs.push(await run(bash, { command, timeout: 20 }));
  process.stdout.write(JSON.stringify({ pid: process.pid, isolation, outputs }));
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error));
  process.exit(1);
});
