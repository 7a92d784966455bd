import type { AgentClient } from '../client/agent-client';
import type { CliInput } from './cli-input';
import type { CliOutput } from './cli-output';

export interface CommandContext {
  /** Positional arguments after the command name. */
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  connect(): Promise<AgentClient>;
  output: CliOutput;
  /** What the person types, for interactive commands; stdin unless the caller gave lines. */
  input(): CliInput;
  /** The options given that stand for an environment variable (`env`), as those variables: flags win over the environment. */
  flagEnvironment(): Record<string, string>;
}

/** One option: what node:util parseArgs takes, and what `--help` shows. */
export interface CliOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  description?: string;
  /** The value's placeholder in help, e.g. `NAME`. */
  valueName?: string;
  /** The default as help shows it. */
  defaultText?: string;
  /** The environment variable that sets the default. */
  env?: string;
  /** The only values it takes: parsing refuses others (with a suggestion) and help lists them. */
  choices?: readonly string[];
}

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** More than the summary, shown by `<command> --help`. */
  details?: string;
  /** Options besides the common ones. */
  options: Record<string, CliOption>;
  /** Shown by `<command> --help`; written as the user types them after `durable-agent`. */
  examples?: string[];
  run(ctx: CommandContext): Promise<number>;
}

export class UsageError extends Error {}

export function requirePositional(ctx: CommandContext, index: number, name: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new UsageError(`missing ${name}`);
  return value;
}

export function stringOption(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** The value of an option declared with these `choices`, typed as one of them. */
export function choiceOption<T extends string>(ctx: CommandContext, name: string, choices: readonly T[]): T | undefined {
  const value = stringOption(ctx, name);
  return choices.find((choice) => choice === value);
}
