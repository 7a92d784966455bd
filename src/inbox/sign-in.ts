import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { HttpError, sameOrigin } from '../http';
import { html, type SafeHtml } from './html';
import { TOKEN_COOKIE, visitorOf, type InboxAuthOptions } from './inbox-auth';
import { formOf, SECURITY_HEADERS, sendPage } from './inbox-http';

const signInSchema = z.object({ token: z.string().min(1).max(1_000) }).strict();

export function signInPage(auth: InboxAuthOptions, refused = false): SafeHtml {
  const token = auth.tokens.length > 0;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · durable-agent inbox</title><link rel="stylesheet" href="/inbox.css"></head><body>
<h1>durable-agent inbox</h1>
<p class="refusal" role="alert">${refused ? 'That token is not one of the inbox.' : 'Unauthorized: sign in to see and answer waiting calls.'}</p>
${token ? html`<form method="post" action="/sign-in"><label>Token <input type="password" name="token" autocomplete="off"></label> <button type="submit" class="primary">Sign in</button></form>` : html`<p>Reload the page and give your user name and password.</p>`}
</body></html>`;
}

/** What a request without a credential gets: 401, the challenge of the sign-in the inbox takes, and the sign-in page. */
export function refuseUnsignedIn(response: ServerResponse, auth: InboxAuthOptions): void {
  const challenge = auth.basicAuth.length > 0 ? 'Basic realm="durable-agent inbox", charset="UTF-8"' : 'Bearer';
  sendPage(response, 401, signInPage(auth), { 'WWW-Authenticate': challenge });
}

/**
 * `/sign-in`: the form, and its post, which keeps a valid token in an HttpOnly, SameSite=Strict
 * cookie (Secure behind a TLS proxy that says so) for a browser that cannot send the header.
 */
export async function handleSignIn(request: IncomingMessage, response: ServerResponse, auth: InboxAuthOptions): Promise<void> {
  if (request.method === 'GET') return sendPage(response, 200, signInPage(auth));
  if (request.method !== 'POST') throw new HttpError(405, 'Method not allowed');
  if (!sameOrigin(request)) throw new HttpError(403, 'Forbidden: the form was posted from another origin.');
  const parsed = signInSchema.safeParse(Object.fromEntries(await formOf(request)));
  const token = parsed.success ? parsed.data.token : undefined;
  const visitor = token ? visitorOf({ headers: { authorization: `Bearer ${token}` } } as IncomingMessage, auth) : undefined;
  if (!visitor || !token) return sendPage(response, 401, signInPage(auth, true));
  const secure = request.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  response.writeHead(303, { Location: '/', 'Set-Cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/${secure}`, ...SECURITY_HEADERS }).end();
}
