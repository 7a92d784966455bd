/**
 * How the person typed this CLI, so the commands it prints can be pasted back: `npm run -s agent --`
 * inside this repository (where `npm run agent` started it), `durable-agent` everywhere else.
 */
export function cliInvocation(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event === 'agent' ? 'npm run -s agent --' : 'durable-agent';
}
