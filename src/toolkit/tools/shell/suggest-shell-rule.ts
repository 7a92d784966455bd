import { lexShell } from './shell-lexer';

const WITH_SUBCOMMANDS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'npx', 'bun', 'deno', 'docker', 'podman', 'kubectl', 'helm', 'cargo', 'go', 'pip', 'pip3',
  'poetry', 'uv', 'gh', 'terraform', 'make', 'dotnet', 'mvn', 'gradle', 'brew', 'apt', 'apt-get', 'systemctl',
]);

/**
 * The rule that would allow commands like this one from now on: the program and, for tools
 * driven by subcommands, the subcommand, as a prefix (`bash(git push:*)`, `bash(ls:*)`).
 */
export function suggestShellRule(command: string, toolName = 'bash'): string | undefined {
  const first = lexShell(command).segments[0];
  const words = (first?.words ?? []).filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text));
  const program = words[0]?.text;
  if (!program || !/^[\w./+-]+$/.test(program)) return undefined;
  const sub = words[1]?.text;
  const prefix = WITH_SUBCOMMANDS.has(program) && sub && /^[A-Za-z][\w:.-]*$/.test(sub) ? `${program} ${sub}` : program;
  return `${toolName}(${prefix}:*)`;
}
