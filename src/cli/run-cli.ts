import { parseArgs } from 'node:util';
import type { AgentClient } from '../client/agent-client';
import { processInput, type CliInput } from './cli-input';
import { processOutput, type CliOutput } from './cli-output';
import { UsageError, type CliCommand, type CliOption } from './command';
import { CONNECTION_FLAGS, connectionOverridesFromFlags } from './connection-flags';
import { dataConverterFromFlags, ENCRYPTION_FLAGS } from './encryption-flags';
import { approveCommand } from './commands/approve';
import { bundleCommand } from './commands/bundle';
import { chatCommand } from './commands/chat';
import { codecServerCommand } from './commands/codec-server';
import { mcpCommand } from './commands/mcp';
import { a2aCommand } from './commands/a2a';
import { inboxCommand } from './commands/inbox';
import { slackCommand } from './commands/slack';
import { denyCommand } from './commands/deny';
import { delegateCommand } from './commands/delegate';
import { groupsCommand } from './commands/groups';
import { listCommand } from './commands/list';
import { pendingCommand } from './commands/pending';
import { resultCommand } from './commands/result';
import { startCommand } from './commands/start';
import { submitCommand } from './commands/submit';
import { addInputCommand } from './commands/add-input';
import { forkCommand } from './commands/fork';
import { scheduleCommand } from './commands/schedule';
import { evalCommand } from './commands/eval';
import { toolsCommand } from './commands/tools';
import { watchCommand } from './commands/watch';
import { streamCommand } from './commands/stream';
import { workerCommand } from './commands/worker';
import { healthCommand } from './commands/health';
import { initCommand } from './commands/init';
import { devCommand } from './commands/dev';
import { didYouMean } from './did-you-mean';
import { commandHelp, overviewHelp } from './help';
import { cliInvocation } from '../text/invocation';
import { checkChoices } from './option-choices';
import { flagEnvironment } from './flag-environment';
import { styleFor } from '../text/style';

export const COMMANDS: CliCommand[] = [
  startCommand,
  chatCommand,
  watchCommand,
  streamCommand,
  resultCommand,
  listCommand,
  pendingCommand,
  approveCommand,
  denyCommand,
  delegateCommand,
  submitCommand,
  addInputCommand,
  forkCommand,
  scheduleCommand,
  groupsCommand,
  toolsCommand,
  bundleCommand,
  codecServerCommand,
  mcpCommand,
  a2aCommand,
  inboxCommand,
  slackCommand,
  workerCommand,
  healthCommand,
  initCommand,
  devCommand,
  evalCommand,
];

export const COMMON_OPTIONS: Record<string, CliOption> = {
  json: { type: 'boolean', description: 'machine-readable output: JSON only on stdout (one object, or one per line for watch)' },
  ...CONNECTION_FLAGS,
  'task-queue': { type: 'string', valueName: 'QUEUE', description: 'task queue of the agent runs', env: 'TEMPORAL_TASK_QUEUE', defaultText: 'durable-agent' },
  ...ENCRYPTION_FLAGS,
  help: { type: 'boolean', short: 'h', description: 'this help' },
};

export function helpText(): string {
  return overviewHelp(COMMANDS, COMMON_OPTIONS);
}

/** What node:util parseArgs takes of each option. */
function parseArgsOptions(options: Record<string, CliOption>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, { type, multiple, short }]) => [
      name,
      { type, ...(multiple ? { multiple } : {}), ...(short ? { short } : {}) },
    ]),
  );
}

function usageProblem(error: unknown, command: CliCommand): string {
  const message = (error as Error).message;
  const unknown = /^Unknown option '--([^']+)'/.exec(message);
  if (!unknown) return message;
  const known = [...Object.keys(command.options), ...Object.keys(COMMON_OPTIONS)];
  return `Unknown option '--${unknown[1]}'.${didYouMean(unknown[1]!, known, '--')}`;
}

/** Runs one CLI invocation and returns its exit code: 0 ok, 1 failed, 2 usage error, 3 the run waits for a person, 4 waiting runs could not be read. */
export async function runCli(argv: string[], output: CliOutput = processOutput, input?: CliInput): Promise<number> {
  const [name, ...rest] = argv;
  const bin = cliInvocation();
  if (name === '--version' || name === '-v' || name === 'version') {
    const { PACKAGE_VERSION } = require('../common/package-version') as typeof import('../common/package-version');
    output.out(`durable-agent ${PACKAGE_VERSION}`);
    return 0;
  }
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    output.out(topic ? commandHelp(topic, COMMON_OPTIONS) : helpText());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const hint = didYouMean(name, COMMANDS.map((c) => c.name));
    output.err(`Unknown command '${name}'.${hint}\nUsage: ${bin} <command> [options]; '${bin} --help' lists the commands.`);
    return 2;
  }
  const style = output.style ?? styleFor(false);
  let client: AgentClient | undefined;
  let reader: CliInput | undefined;
  try {
    const options = { ...COMMON_OPTIONS, ...command.options };
    const { values, positionals } = parseArgs({ args: rest, options: parseArgsOptions(options), allowPositionals: true, strict: true });
    if (values.help) {
      output.out(commandHelp(command, COMMON_OPTIONS));
      return 0;
    }
    checkChoices(values, options);
    const json = values.json === true;
    return await command.run({
      positionals,
      values: values as Record<string, string | boolean | string[] | undefined>,
      json,
      output,
      input: () => (reader ??= input ?? processInput()),
      flagEnvironment: () => flagEnvironment(values, options),
      connect: async () => {
        // Loaded on first use: `--help` and usage errors never pay for the Temporal client.
        const { AgentClient } = require('../client/agent-client') as typeof import('../client/agent-client');
        client ??= await AgentClient.connect({
          ...connectionOverridesFromFlags(values),
          ...dataConverterFromFlags(values),
          ...(typeof values['task-queue'] === 'string' ? { taskQueue: values['task-queue'] } : {}),
        });
        return client;
      },
    });
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.err(`${style.red(usageProblem(error, command))}\nUsage: ${bin} ${command.usage}\n'${bin} ${command.name} --help' shows every option.`);
      return 2;
    }
    const cause = (error as { cause?: Error }).cause;
    const message = (error as Error).message;
    output.err(style.red(`Error: ${message}${cause?.message && !message.includes(cause.message) ? `: ${cause.message}` : ''}`));
    return 1;
  } finally {
    reader?.close();
    await client?.close();
  }
}
