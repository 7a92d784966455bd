import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { HttpError, readBody } from '../http';
import type { SafeHtml } from './html';

/** How the inbox answers over HTTP: its headers, its pages, and what it reads of a request (the shared pieces are in src/http). */

const MAX_FORM_BYTES = 2 * 1024 * 1024;

export const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  // Not no-referrer: with it, browsers post forms with `Origin: null`, which the origin check refuses.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export function send(response: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': type, ...SECURITY_HEADERS, ...headers }).end(body);
}

export function sendPage(response: ServerResponse, status: number, body: SafeHtml, headers: Record<string, string> = {}): void {
  send(response, status, body.text, 'text/html; charset=utf-8', headers);
}

export function queryOf<S extends z.ZodTypeAny>(url: URL, schema: S): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue: z.ZodIssue) =>
      issue.code === 'unrecognized_keys' ? `unknown parameter(s) ${issue.keys.join(', ')}` : `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new HttpError(400, `Bad query: ${reasons.join('; ')}`);
  }
  return parsed.data;
}

export async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw new HttpError(415, 'Send the form as application/x-www-form-urlencoded.');
  return new URLSearchParams(await readBody(request, { maxBytes: MAX_FORM_BYTES, tooLarge: `The form is over ${MAX_FORM_BYTES / 1024 / 1024} MiB.` }));
}

