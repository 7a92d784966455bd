import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { isLoopbackHost } from '../codec/codec-server-access';
import { MAX_NAME_CHARS } from '../common/boundary/limits';
import type { AgentEvent } from '../common/events';
import type { JsonSchema } from '../common/tools';
import { parseAnswerForm } from './answer-form';
import { INBOX_SCRIPT } from './inbox-script';
import { INBOX_STYLE } from './inbox-style';
import { answerOf } from './call-answers';
import { readConversationPage, type ConversationPage } from './conversation-view';
import { html } from './html';
import { bindProblem, CsrfTokens, visitorOf, type InboxAuthOptions, type Visitor } from './inbox-auth';
import { formOf, HttpError, loopbackHostHeader, queryOf, sameOrigin, SECURITY_HEADERS, send, sendPage } from './inbox-http';
import { handleSignIn, refuseUnsignedIn } from './sign-in';
import { itemPage, type ItemView } from './item-page';
import { page } from './layout';
import { applyFilters, listFiltersSchema } from './list-filters';
import { itemsFragment, listPage } from './list-page';
import { LiveUpdates } from './live-updates';
import { sendAnswer } from './send-answer';
import { itemKey, itemPath, listWaitingItems, type WaitingItem } from './waiting-items';

/** The JSON Schema of each tool's input, by agent and tool name (what the forms are made from). */
export type ToolSchemas = Record<string, Record<string, JsonSchema>>;

export interface InboxOptions {
  client: AgentClient;
  /** 0 picks a free port. */
  port: number;
  /** 127.0.0.1 unless given; anything else needs a token or basic auth. */
  host?: string;
  auth: InboxAuthOptions;
  tools: ToolSchemas;
  /** A visibility query that narrows the runs listed, e.g. `TaskQueue = 'agents'`. */
  scope?: string;
  /** How often the live updates read what waits. Default 1 s. */
  pollIntervalMs?: number;
}

export interface InboxServer {
  url: string;
  close(): Promise<void>;
}

const itemQuerySchema = z
  .object({
    page: z.coerce.number().int().min(0).max(100_000).default(0),
    done: z.enum(['approved', 'denied', 'submitted']).optional(),
  })
  .strict();

/** A run id and a call id as the path names them: decoded, and no longer than the run takes. */
const callAddressSchema = z
  .object({ holderId: z.string().min(1).max(MAX_NAME_CHARS), callId: z.string().min(1).max(MAX_NAME_CHARS) })
  .strict();

function callAddressOf(holder: string, call: string): z.output<typeof callAddressSchema> {
  let decoded: { holderId: string; callId: string };
  try {
    decoded = { holderId: decodeURIComponent(holder), callId: decodeURIComponent(call) };
  } catch {
    throw new HttpError(400, 'Bad path: the run or call id is not URL-encoded text.');
  }
  const parsed = callAddressSchema.safeParse(decoded);
  if (!parsed.success) throw new HttpError(400, `Bad path: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

const DONE_TEXT = { approved: 'Approved: the run goes on.', denied: 'Denied: the agent reads your reason.', submitted: 'Result submitted: the run goes on.' } as const;

/**
 * `durable-agent inbox`: every call that waits for a person, and forms that answer them. Pages
 * are rendered here (no build step, one small script for the live updates); answers go through
 * the client, so an encrypted run is read and answered with the inbox's keys.
 */
export async function serveInbox(options: InboxOptions): Promise<InboxServer> {
  const host = options.host ?? '127.0.0.1';
  const problem = bindProblem(host, options.auth);
  if (problem) throw new Error(problem);
  const { client } = options;
  const csrf = new CsrfTokens();
  const live = new LiveUpdates(() => listWaitingItems(client, options.scope), options.pollIntervalMs ?? 1_000);
  const webUiLink = (workflowId: string) =>
    `${client.config.webUiUrl}/namespaces/${encodeURIComponent(client.config.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  const schemaOf = (item: WaitingItem | undefined) => (item ? options.tools[item.agent]?.[item.tool] : undefined);

  async function findItem(holderId: string, callId: string): Promise<WaitingItem | undefined> {
    const { items } = await listWaitingItems(client, options.scope);
    return items.find((item) => itemKey(item) === itemKey({ holderId, callId }));
  }

  async function holderConversation(holderId: string, page: number): Promise<ConversationPage | undefined> {
    const run = client.get(holderId);
    const state = await run.state().catch(() => undefined);
    return state ? readConversationPage(run, state, page).catch(() => undefined) : undefined;
  }

  async function holderEvents(holderId: string): Promise<AgentEvent[]> {
    return client.get(holderId).eventsAfter(0).catch(() => []);
  }

  async function itemView(visitor: Visitor, holderId: string, callId: string, more: Partial<ItemView> = {}, page = 0): Promise<ItemView> {
    const [item, conversation, events] = await Promise.all([findItem(holderId, callId), holderConversation(holderId, page), holderEvents(holderId)]);
    const answer = item ? undefined : answerOf(events, callId);
    return {
      holderId,
      callId,
      ...(item ? { item } : {}),
      ...(conversation ? { conversation } : {}),
      ...(schemaOf(item) ? { schema: schemaOf(item)! } : {}),
      identity: visitor.identity,
      csrf: csrf.tokenFor(visitor),
      webUiLink: webUiLink(holderId),
      ...(answer ? { answer } : {}),
      ...more,
    };
  }

  async function answer(request: IncomingMessage, response: ServerResponse, visitor: Visitor, holderId: string, callId: string): Promise<void> {
    if (!sameOrigin(request)) throw new HttpError(403, 'Forbidden: the form was posted from another origin.');
    const form = await formOf(request);
    if (!csrf.check(visitor, form.get('csrf') ?? undefined)) throw new HttpError(403, 'Forbidden: the form is stale or was not made by this inbox (CSRF token). Reload the page.');
    const item = await findItem(holderId, callId);
    const parsed = parseAnswerForm(form, schemaOf(item), item?.input);
    if (!parsed.ok) {
      const view = await itemView(visitor, holderId, callId, {
        refusal: parsed.message,
        ...(parsed.errors ? { errors: parsed.errors } : {}),
        ...(parsed.input !== undefined ? { input: parsed.input } : {}),
        ...(parsed.rawJson !== undefined ? { rawJson: parsed.rawJson } : {}),
      });
      return sendPage(response, 422, itemPage(view));
    }
    // A call held by a sub-agent is answered through the top-level run, which passes it down.
    const outcome = await sendAnswer(client.get(item?.runId ?? holderId), callId, parsed.request, visitor.identity);
    if (!outcome.ok) {
      const view = await itemView(visitor, holderId, callId, { refusal: `The run refused the answer: ${outcome.reason}` });
      return sendPage(response, 409, itemPage(view));
    }
    response.writeHead(303, { Location: `${itemPath({ holderId, callId })}?done=${outcome.done}`, ...SECURITY_HEADERS }).end();
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://inbox');
    const method = request.method ?? 'GET';
    // On loopback a page of another name that resolves here (DNS rebinding) would be same-origin with it.
    if (isLoopbackHost(host) && !loopbackHostHeader(request.headers.host)) throw new HttpError(403, `Forbidden: the inbox on ${host} answers requests for loopback names only.`);
    if (method === 'GET' && url.pathname === '/inbox.js') return send(response, 200, INBOX_SCRIPT, 'text/javascript; charset=utf-8');
    if (method === 'GET' && url.pathname === '/inbox.css') return send(response, 200, INBOX_STYLE, 'text/css; charset=utf-8');
    if (url.pathname === '/sign-in') return handleSignIn(request, response, options.auth);
    const visitor = visitorOf(request, options.auth);
    if (!visitor) return refuseUnsignedIn(response, options.auth);
    if (method === 'GET' && (url.pathname === '/' || url.pathname === '/fragment')) {
      const filters = queryOf(url, listFiltersSchema);
      const list = await listWaitingItems(client, options.scope);
      const shown = applyFilters(list.items, filters);
      return sendPage(response, 200, url.pathname === '/' ? listPage(list, shown, filters, visitor.identity) : itemsFragment(list, shown));
    }
    if (method === 'GET' && url.pathname === '/events') return live.listen(response);
    const call = /^\/calls\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (call) {
      const { holderId, callId } = callAddressOf(call[1]!, call[2]!);
      if (method === 'POST') return answer(request, response, visitor, holderId, callId);
      if (method !== 'GET') throw new HttpError(405, 'Method not allowed');
      const query = queryOf(url, itemQuerySchema);
      const view = await itemView(visitor, holderId, callId, query.done ? { done: DONE_TEXT[query.done] } : {}, query.page);
      return sendPage(response, 200, itemPage(view));
    }
    throw new HttpError(404, `Not found: ${url.pathname}`);
  }

  const http = createServer((request, response) => {
    route(request, response).catch((error: Error) => {
      if (response.headersSent) return void response.end();
      const status = error instanceof HttpError ? error.status : 500;
      const headers = error instanceof HttpError ? error.headers : {};
      sendPage(response, status, page('Error', '', html`<p class="refusal" role="alert">${error.message}</p><p><a href="/">Back to the inbox</a></p>`), headers);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : isLoopbackHost(host) ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    async close() {
      live.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
