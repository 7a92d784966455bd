import { normalOrigin } from './origin';

/** An allow-list of origins as given (flags, or a variable's comma-separated list); throws naming what is not an origin. */
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

/** Why a request from `origin` is refused, and how to allow it: `--allow-origin` or the server's variable. */
export function originRefusal(origin: string, variable: string): string {
  return (
    `Forbidden: requests from the origin '${origin}' are not allowed; only loopback origins and those allowed are. ` +
    `Allow it with --allow-origin ${origin} or ${variable}=${origin}.`
  );
}
