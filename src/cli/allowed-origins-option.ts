import { parseAllowedOrigins } from '../http';
import { UsageError, type CliOption, type CommandContext } from './command';

/** The --allow-origin option of a server command; `variable` is the server's environment variable, `applies` a qualifier ("with --http: "). */
export function allowOriginOption(variable: string, applies = ''): CliOption {
  return {
    type: 'string',
    multiple: true,
    valueName: 'ORIGIN',
    description: `${applies}also take requests from pages of this origin, e.g. https://app.example.com (repeatable, comma-separated)`,
    env: variable,
    defaultText: 'loopback origins only',
  };
}

/** The --allow-origin flags given, if any. */
export function allowOriginFlags(ctx: CommandContext): string[] | undefined {
  const flags = ctx.values['allow-origin'];
  return Array.isArray(flags) ? flags : undefined;
}

/** --allow-origin, else the server's variable; checked here, so a typo is a usage error before anything listens. */
export function allowedOriginsOf(ctx: CommandContext, variable: string): string[] {
  const flags = allowOriginFlags(ctx);
  const given = flags ?? (process.env[variable] ? [process.env[variable]] : []);
  try {
    return parseAllowedOrigins(given);
  } catch (error) {
    throw new UsageError(`${flags ? '--allow-origin' : variable}: ${(error as Error).message}`);
  }
}
