import { parseAllowedOrigins } from '../http';
import { UsageError } from './command';

/** --allow-origin, else the server's variable; checked here, so a typo is a usage error before anything listens. */
export function allowedOriginsOf(flags: string[] | undefined, variable: string): string[] {
  const given = flags ?? (process.env[variable] ? [process.env[variable]] : []);
  try {
    return parseAllowedOrigins(given);
  } catch (error) {
    throw new UsageError(`${flags ? '--allow-origin' : variable}: ${(error as Error).message}`);
  }
}
