import { parseArgs } from 'node:util';
import { AgentClient } from '../agent-client';
import { processOutput, type CliOutput } from './cli-output';
import { UsageError, type CliCommand } from './command';
import { approveCommand } from './commands/approve';
import { denyCommand } from './commands/deny';
import { groupsCommand } from './commands/groups';
import { listCommand } from './commands/list';
import { pendingCommand } from './commands/pending';
import { resultCommand } from './commands/result';
import { startCommand } from './commands/start';
import { submitCommand } from './commands/submit';
import { toolsCommand } from './commands/tools';
import { watchCommand } from './commands/watch';

export const COMMANDS: CliCommand[] = [
  startCommand,
  watchCommand,
  resultCommand,
  listCommand,
  pendingCommand,
  approveCommand,
  denyCommand,
  submitCommand,
  groupsCommand,
  toolsCommand,
];

const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  address: { type: 'string' },
  namespace: { type: 'string' },
  'task-queue': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function helpText(): string {
  const lines = ['Usage: durable-agent <command> [options]', '', 'Commands:'];
  for (const command of COMMANDS) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  lines.push(
    '',
    'Common options: --json (machine-readable output), --address HOST:PORT (TEMPORAL_ADDRESS),',
    '  --namespace NS (TEMPORAL_NAMESPACE), --task-queue Q (TEMPORAL_TASK_QUEUE).',
  );
  return lines.join('\n');
}

/** Runs one CLI invocation and returns its exit code: 0 ok, 1 failed, 2 usage error. */
export async function runCli(argv: string[], output: CliOutput = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    output.out(helpText());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    output.err(`Unknown command '${name}'.\n\n${helpText()}`);
    return 2;
  }
  let client: AgentClient | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...COMMON_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      output.out(`Usage: durable-agent ${command.usage}\n${command.summary}${command.details ? `\n\n${command.details}` : ''}`);
      return 0;
    }
    const json = values.json === true;
    return await command.run({
      positionals,
      values: values as Record<string, string | boolean | string[] | undefined>,
      json,
      output,
      connect: async () => {
        client ??= await AgentClient.connect({
          ...(typeof values.address === 'string' ? { address: values.address } : {}),
          ...(typeof values.namespace === 'string' ? { namespace: values.namespace } : {}),
          ...(typeof values['task-queue'] === 'string' ? { taskQueue: values['task-queue'] } : {}),
        });
        return client;
      },
    });
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.err(`${(error as Error).message}\nUsage: durable-agent ${command.usage}`);
      return 2;
    }
    const cause = (error as { cause?: Error }).cause;
    output.err(`Error: ${(error as Error).message}${cause?.message ? `: ${cause.message}` : ''}`);
    return 1;
  } finally {
    await client?.close();
  }
}
