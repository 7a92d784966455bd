import { isLoopbackHost } from '../codec/codec-server-access';

/** The variable with more origins the HTTP server takes requests from (comma-separated), when no --allow-origin is given. */
export const ALLOWED_ORIGINS_ENV = 'AGENT_MCP_ALLOWED_ORIGINS';

/** An origin of another scheme (a browser extension's, an app's), compared as written: URL gives them no origin. */
const OPAQUE_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i;

/** An origin as browsers send it, normalized (`https://App.example.com:443` is `https://app.example.com`); undefined when it is none. */
export function normalOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return url.href.replace(/\/$/, '') === url.origin && !url.username && !url.password ? url.origin : undefined;
  }
  return OPAQUE_ORIGIN.test(text) ? text.toLowerCase() : undefined;
}

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

/**
 * Whether a request with this `Origin` header may reach the server: a browser page of a loopback
 * origin (any port), or of one allowed. A page elsewhere is refused, since anything it made a
 * browser send (a DNS-rebinding page, a form post) would start runs and answer approvals.
 */
export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  const normal = normalOrigin(origin);
  if (normal === undefined) return false;
  if (allowed.has(normal)) return true;
  if (!normal.startsWith('http://') && !normal.startsWith('https://')) return false;
  return isLoopbackHost(new URL(normal).hostname);
}

export function originRefusal(origin: string): string {
  return (
    `Forbidden: requests from the origin '${origin}' are not allowed; only loopback origins and those allowed are. ` +
    `Allow it with --allow-origin ${origin} or ${ALLOWED_ORIGINS_ENV}=${origin}.`
  );
}
