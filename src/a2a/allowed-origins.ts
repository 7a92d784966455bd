import { normalOrigin } from '../http';

/** The variable with more origins the A2A server takes requests from (comma-separated), when no --allow-origin is given. */
export const A2A_ALLOWED_ORIGINS_ENV = 'AGENT_A2A_ALLOWED_ORIGINS';

/** The allow-list as given (flags, or the variable's comma-separated list); throws naming what is not an origin. */
export function parseAllowedOrigins(entries: readonly string[]): string[] {
  return entries
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const origin = normalOrigin(entry);
      if (!origin) throw new Error(`'${entry}' is not an origin: scheme://host[:port], without path, e.g. https://app.example.com`);
      return origin;
    });
}

export function originRefusal(origin: string): string {
  return `Forbidden: requests from the origin '${origin}' are not allowed; only loopback origins and those allowed are. Allow it with --allow-origin ${origin} or ${A2A_ALLOWED_ORIGINS_ENV}=${origin}.`;
}
