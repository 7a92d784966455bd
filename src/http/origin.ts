import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from './loopback';

/** Origins as browsers send them (the `Origin` header), checked by the HTTP front ends (the MCP server, the inbox). */

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

/**
 * Whether a request with this `Origin` header may reach the server: a browser page of a loopback
 * origin (any port), or of one allowed. A page elsewhere is refused, since anything it made a
 * browser send (a DNS-rebinding page, a form post) would act for whoever runs the server.
 */
export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  const normal = normalOrigin(origin);
  if (normal === undefined) return false;
  if (allowed.has(normal)) return true;
  if (!normal.startsWith('http://') && !normal.startsWith('https://')) return false;
  return isLoopbackHost(new URL(normal).hostname);
}

/** Whether a browser's request comes from the server's own pages: its `Origin` (when it sends one) names the Host it was sent to. */
export function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const normal = normalOrigin(origin);
  if (!normal || !/^https?:\/\//.test(normal)) return false;
  return new URL(normal).host === request.headers.host;
}
