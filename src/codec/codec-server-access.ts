import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the Web UI sends: its own headers, and with "Pass access token" its login's tokens. */
const ALLOWED_HEADERS = 'Content-Type, X-Namespace, Authorization, Authorization-Extras';

/**
 * CORS for the listed origins (the Web UI's), with credentials, since the UI may send cookies
 * ("Include cross-origin credentials"). Returns false for a browser request from any other origin.
 */
export function applyCors(request: IncomingMessage, response: ServerResponse, origins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true; // not a browser: the temporal CLI, curl
  response.setHeader('Vary', 'Origin');
  if (!origins.includes(origin)) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Access-Control-Allow-Credentials', 'true');
  return true;
}

export function answerPreflight(response: ServerResponse): void {
  response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  response.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  response.setHeader('Access-Control-Max-Age', '600');
  response.writeHead(204).end();
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether two secrets are equal, in time that depends on neither (both are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function hasBearerToken(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match !== null && sameSecret(match[1]!, token);
}

/** Now in src/http; still named here for src/cli/commands/{codec-server,mcp}.ts, which import it from this file. */
export { isLoopbackHost } from '../http';
