import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { sameSecret } from '../codec/codec-server-access';
import { isLoopbackHost } from '../http';

/** A bearer token and the person it stands for (the identity recorded with their answers). */
export interface InboxToken {
  name: string;
  secret: string;
}

export interface InboxAuthOptions {
  tokens: InboxToken[];
  /** `user:password` pairs for HTTP basic auth; the user is the identity. */
  basicAuth: { user: string; password: string }[];
  /** A header the deployment's proxy sets to the signed-in person (trusted only when set here). */
  identityHeader?: string;
}

export const TOKEN_COOKIE = 'inbox_token';
const DEFAULT_NAME = 'inbox';

const tokenSchema = z
  .string()
  .min(1)
  .transform((text, context): InboxToken => {
    const at = text.indexOf('=');
    const token = at > 0 ? { name: text.slice(0, at), secret: text.slice(at + 1) } : { name: DEFAULT_NAME, secret: text };
    if (token.secret.length < 16) context.addIssue({ code: 'custom', message: 'a token must be at least 16 characters (e.g. openssl rand -hex 24)' });
    return token;
  });

const basicSchema = z
  .string()
  .regex(/^[^:]+:.{8,}$/, 'give USER:PASSWORD, the password at least 8 characters')
  .transform((text) => ({ user: text.slice(0, text.indexOf(':')), password: text.slice(text.indexOf(':') + 1) }));

const headerSchema = z.string().regex(/^[A-Za-z0-9-]+$/, 'a header name (letters, digits, dashes)');

/** Flags as given: `--token [NAME=]SECRET`, `--basic-auth USER:PASSWORD`, `--identity-header NAME`; throws naming what is wrong. */
export function parseInboxAuth(given: { tokens: string[]; basicAuth: string[]; identityHeader?: string }): InboxAuthOptions {
  const describe = (flag: string, error: z.ZodError) => new Error(`${flag}: ${error.issues.map((issue) => issue.message).join('; ')}`);
  const tokens = given.tokens.map((text) => {
    const parsed = tokenSchema.safeParse(text);
    if (!parsed.success) throw describe('--token', parsed.error);
    return parsed.data;
  });
  const basicAuth = given.basicAuth.map((text) => {
    const parsed = basicSchema.safeParse(text);
    if (!parsed.success) throw describe('--basic-auth', parsed.error);
    return parsed.data;
  });
  let identityHeader: string | undefined;
  if (given.identityHeader !== undefined) {
    const parsed = headerSchema.safeParse(given.identityHeader);
    if (!parsed.success) throw describe('--identity-header', parsed.error);
    identityHeader = parsed.data.toLowerCase();
  }
  return { tokens, basicAuth, ...(identityHeader ? { identityHeader } : {}) };
}

export function requiresSignIn(auth: InboxAuthOptions): boolean {
  return auth.tokens.length > 0 || auth.basicAuth.length > 0;
}

/** A bind elsewhere than loopback serves whoever reaches it, so it needs a token or basic auth. */
export function bindProblem(host: string, auth: InboxAuthOptions): string | undefined {
  if (isLoopbackHost(host) || requiresSignIn(auth)) return undefined;
  return `--host ${host} is not a loopback address: anyone who reaches it could answer the agents' calls. Give --token or --basic-auth too.`;
}

export function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** Who the request comes from, and the secret that admitted it (the CSRF token is bound to it). */
export interface Visitor {
  identity: string;
  credential: string;
}

function tokenVisitor(auth: InboxAuthOptions, given: string | undefined): Visitor | undefined {
  if (given === undefined) return undefined;
  let found: InboxToken | undefined;
  // Every token is compared, so the time taken says nothing about which one matched.
  for (const token of auth.tokens) if (sameSecret(given, token.secret) && !found) found = token;
  return found ? { identity: found.name, credential: `token:${found.secret}` } : undefined;
}

function basicVisitor(auth: InboxAuthOptions, header: string | undefined): Visitor | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at < 0) return undefined;
  const user = decoded.slice(0, at);
  const password = decoded.slice(at + 1);
  let found: { user: string; password: string } | undefined;
  for (const pair of auth.basicAuth) if (sameSecret(user, pair.user) && sameSecret(password, pair.password) && !found) found = pair;
  return found ? { identity: found.user, credential: `basic:${found.user}:${found.password}` } : undefined;
}

/**
 * The visitor of a request, or undefined when it must sign in. Tokens come in the Authorization
 * header or the cookie `/sign-in` sets; basic auth in the header. The identity header, when the
 * deployment names one, gives the name recorded with answers.
 */
export function visitorOf(request: IncomingMessage, auth: InboxAuthOptions): Visitor | undefined {
  let visitor: Visitor | undefined;
  if (!requiresSignIn(auth)) visitor = { identity: DEFAULT_NAME, credential: 'loopback' };
  else {
    const header = request.headers.authorization;
    const bearer = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1];
    visitor = tokenVisitor(auth, bearer) ?? tokenVisitor(auth, cookieOf(request, TOKEN_COOKIE)) ?? basicVisitor(auth, header);
  }
  if (!visitor || !auth.identityHeader) return visitor;
  const named = request.headers[auth.identityHeader];
  const identity = typeof named === 'string' ? named.trim().slice(0, 200) : '';
  return identity ? { ...visitor, identity } : visitor;
}

/** Per-process key of the CSRF tokens: a restart signs everyone's forms anew. */
export class CsrfTokens {
  private readonly key = randomBytes(32);

  /** The token of this visitor's forms, bound to the credential that admitted them. */
  tokenFor(visitor: Visitor): string {
    return createHmac('sha256', this.key).update(`${visitor.credential}\n${visitor.identity}`).digest('base64url');
  }

  check(visitor: Visitor, given: string | undefined): boolean {
    return given !== undefined && sameSecret(given, this.tokenFor(visitor));
  }
}
