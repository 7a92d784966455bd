import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { runsByIdFilter } from '../client/run-filter';
import { createRunStreamHandler } from '../client/stream/stream-http';
import { HttpError, InFlight, isLoopbackHost, loopbackHostHeader, sameOrigin } from '../http';
import { MAX_NAME_CHARS } from '../common/boundary/limits';
import type { AgentEvent } from '../common/events';
import type { AgentRunState } from '../common/run';
import type { SlackEndpoint } from '../slack/slack-endpoint';
import { parseAnswerForm } from './answer-form';
import { parseForkForm } from './fork-form';
import { INBOX_SCRIPT } from './inbox-script';
import { INBOX_STYLE } from './inbox-style';
import { answerOf } from './call-answers';
import { readConversationPage, type ConversationPage } from './conversation-view';
import { html } from './html';
import { bindProblem, CsrfTokens, visitorOf, type InboxAuthOptions, type Visitor } from './inbox-auth';
import { formOf, queryOf, SECURITY_HEADERS, send, sendPage } from './inbox-http';
import { handleSignIn, refuseUnsignedIn } from './sign-in';
import { itemPage, type ItemView } from './item-page';
import { forkRun } from './fork-run';
import { runPage, runPath } from './run-page';
import { readRunView, type RunView } from './run-view';
import { page } from './layout';
import { listFiltersSchema } from './list-filters';
import { itemsFragment, listPage } from './list-page';
import { LiveUpdates, type LiveReading } from './live-updates';
import { sendAnswer } from './send-answer';
import { INBOX_PAGE_CALLS, itemKey, itemPath, openCallOf, readInboxList, type OpenCall } from './inbox-calls';

export interface InboxOptions {
  client: AgentClient;
  /** 0 picks a free port. */
  port: number;
  /** 127.0.0.1 unless given; anything else needs a token or basic auth. */
  host?: string;
  auth: InboxAuthOptions;
  /** A visibility query that narrows the runs listed, e.g. `TaskQueue = 'agents'`. */
  scope?: string;
  /** How often the live updates read what waits right after a change or a page opening. Default 1 s. */
  pollIntervalMs?: number;
  /** The longest the live updates' reads space out to while nothing changes. Default 5 s. */
  idlePollIntervalMs?: number;
  /** Two-way Slack mounted at its paths (src/slack): Slack's requests are checked by their signature, not the sign-in. */
  slack?: Pick<SlackEndpoint, 'handle'>;
}

export interface InboxServer {
  url: string;
  close(): Promise<void>;
}

const itemQuerySchema = z
  .object({
    page: z.coerce.number().int().min(0).max(100_000).default(0),
    done: z.enum(['approved', 'denied', 'submitted', 'input']).optional(),
  })
  .strict();

const noQuerySchema = z.object({}).strict();

const runIdSchema = z.string().min(1, 'is empty').max(1000, 'is over 1000 characters');

const watchSchema = z.object({ watch: z.string().max(2 * MAX_NAME_CHARS + 1).optional() }).strict();

/** A run id and a call id as the path names them: decoded, and no longer than the run takes. */
const callAddressSchema = z
  .object({ holderId: z.string().min(1).max(MAX_NAME_CHARS), callId: z.string().min(1).max(MAX_NAME_CHARS) })
  .strict();

/** A run id as the path names it: one URL-encoded segment (a sub-agent run's id holds slashes). */
function runIdOf(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'Bad path: the run id is not URL-encoded text.');
  }
  const parsed = runIdSchema.safeParse(decoded);
  if (!parsed.success) throw new HttpError(400, `Bad path: the run id ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

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

/** How long an item page waits for one run's answer to a query before it renders without it. */
const READ_TIMEOUT_MS = 10_000;

const DONE_TEXT = {
  approved: 'Approved: the run goes on.',
  denied: 'Denied: the agent reads your reason.',
  submitted: 'Result submitted: the run goes on.',
  input: 'Message sent: the agent reads it at its next step.',
} as const;

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
  const scoped = (query: string) => (options.scope ? `(${options.scope}) AND ${query}` : query);
  const live = new LiveUpdates(async ({ firstPage, watched }): Promise<LiveReading> => {
    const first = firstPage ? await client.waitingCalls({ pageSize: INBOX_PAGE_CALLS, ...(options.scope ? { query: options.scope } : {}) }) : undefined;
    const holders = [...new Set(watched.map((key) => key.slice(0, key.lastIndexOf('/'))))];
    const read = holders.length > 0 ? await client.waitingCalls({ pageSize: holders.length, query: scoped(runsByIdFilter(holders)) }) : undefined;
    return { firstPage: (first?.calls ?? []).map(itemKey), waiting: new Set((read?.calls ?? []).map(itemKey)) };
  }, { fastMs: options.pollIntervalMs ?? 1_000, idleMs: Math.max(options.idlePollIntervalMs ?? 5_000, options.pollIntervalMs ?? 1_000) });
  const webUiLink = (workflowId: string) =>
    `${client.config.webUiUrl}/namespaces/${encodeURIComponent(client.config.namespace)}/workflows/${encodeURIComponent(workflowId)}`;

  /** A read of one run within READ_TIMEOUT_MS: a page shows what it has rather than wait on a run that does not answer. */
  const bounded = <T>(read: () => Promise<T>): Promise<T> => client.client.withDeadline(Date.now() + READ_TIMEOUT_MS, read);

  /** The holder run's state: the one query an item page makes of a run (undefined when it cannot be read). */
  async function holderState(holderId: string): Promise<AgentRunState | undefined> {
    return bounded(() => client.get(holderId).state()).catch(() => undefined);
  }

  async function holderConversation(holderId: string, state: AgentRunState | undefined, page: number): Promise<ConversationPage | undefined> {
    if (!state) return undefined;
    return bounded(() => readConversationPage(client.get(holderId), state.messageCount ?? state.messages.length, page)).catch(() => undefined);
  }

  async function holderEvents(holderId: string): Promise<AgentEvent[]> {
    return bounded(() => client.get(holderId).eventsAfter(0)).catch(() => []);
  }

  async function itemView(visitor: Visitor, holderId: string, callId: string, more: Partial<ItemView> = {}, page = 0): Promise<ItemView> {
    const state = await holderState(holderId);
    const open: OpenCall | undefined = state ? openCallOf(holderId, state, callId) : undefined;
    const [conversation, events] = await Promise.all([holderConversation(holderId, state, page), open ? Promise.resolve([]) : holderEvents(holderId)]);
    const answer = open ? undefined : answerOf(events, callId);
    return {
      holderId,
      callId,
      ...(open ? { open } : {}),
      ...(conversation ? { conversation } : {}),
      identity: visitor.identity,
      csrf: csrf.tokenFor(visitor),
      webUiLink: webUiLink(holderId),
      ...(answer ? { answer } : {}),
      ...more,
    };
  }

  /** A posted form of one of the inbox's own pages: same origin, with the visitor's CSRF token. */
  async function postedForm(request: IncomingMessage, visitor: Visitor): Promise<URLSearchParams> {
    if (!sameOrigin(request)) throw new HttpError(403, 'Forbidden: the form was posted from another origin.');
    const form = await formOf(request);
    if (!csrf.check(visitor, form.get('csrf') ?? undefined)) throw new HttpError(403, 'Forbidden: the form is stale or was not made by this inbox (CSRF token). Reload the page.');
    return form;
  }

  async function answer(request: IncomingMessage, response: ServerResponse, visitor: Visitor, holderId: string, callId: string): Promise<void> {
    const form = await postedForm(request, visitor);
    const state = await holderState(holderId);
    const open = state ? openCallOf(holderId, state, callId) : undefined;
    const parsed = parseAnswerForm(form, open?.schema, open?.call.input);
    if (!parsed.ok) {
      const view = await itemView(visitor, holderId, callId, {
        refusal: parsed.message,
        ...(parsed.errors ? { errors: parsed.errors } : {}),
        ...(parsed.input !== undefined ? { input: parsed.input } : {}),
        ...(parsed.rawJson !== undefined ? { rawJson: parsed.rawJson } : {}),
      });
      return sendPage(response, 422, itemPage(view));
    }
    // Straight to the run that holds the call (a sub-agent's own run).
    const outcome = await sendAnswer(client.get(holderId), callId, parsed.request, visitor.identity, parsed.bound);
    if (!outcome.ok) {
      const view = await itemView(visitor, holderId, callId, { refusal: outcome.reason });
      return sendPage(response, 409, itemPage(view));
    }
    response.writeHead(303, { Location: `${itemPath({ workflowId: holderId, callId })}?done=${outcome.done}`, ...SECURITY_HEADERS }).end();
  }

  /** A message for the run that holds the call (steering), as the signed-in person. */
  async function addInput(request: IncomingMessage, response: ServerResponse, visitor: Visitor, holderId: string, callId: string): Promise<void> {
    const form = await postedForm(request, visitor);
    const text = (form.get('text') ?? '').trim();
    const refusal = text === '' ? 'Write a message first.' : await client
      .get(holderId)
      .addInput(text, visitor.identity ? { addedBy: visitor.identity } : {})
      .then(() => undefined, (error: Error) => error.message);
    if (refusal) return sendPage(response, 409, itemPage(await itemView(visitor, holderId, callId, { refusal })));
    response.writeHead(303, { Location: `${itemPath({ workflowId: holderId, callId })}?done=input`, ...SECURITY_HEADERS }).end();
  }

  /** A run's page: its events with a fork form after each, its lineage and its forks (404 for a run that does not exist). */
  async function runView(visitor: Visitor, workflowId: string, more: Partial<RunView> = {}): Promise<{ view: RunView; found: boolean }> {
    const { found, ...read } = await readRunView(client, workflowId, { ...(options.scope ? { scope: options.scope } : {}), bounded });
    return { view: { workflowId, identity: visitor.identity, csrf: csrf.tokenFor(visitor), webUiLink: webUiLink(workflowId), ...read, ...more }, found };
  }

  /** "Fork from here": the fork starts and the page of the fork follows; a refusal is shown on the run's page, nothing started. */
  async function fork(request: IncomingMessage, response: ServerResponse, visitor: Visitor, workflowId: string): Promise<void> {
    const form = await postedForm(request, visitor);
    const outcome = await forkRun(client, workflowId, parseForkForm(form));
    if (!outcome.ok) {
      const { view } = await runView(visitor, workflowId, { refusal: outcome.refusal });
      return sendPage(response, outcome.status, runPage(view));
    }
    response.writeHead(303, { Location: runPath(outcome.workflowId), ...SECURITY_HEADERS }).end();
  }

  const streams = createRunStreamHandler({ client });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://inbox');
    const method = request.method ?? 'GET';
    if (options.slack && (await options.slack.handle(request, response))) return;
    // On loopback a page of another name that resolves here (DNS rebinding) would be same-origin with it.
    if (isLoopbackHost(host) && !loopbackHostHeader(request.headers.host)) throw new HttpError(403, `Forbidden: the inbox on ${host} answers requests for loopback names only.`);
    if (method === 'GET' && url.pathname === '/inbox.js') return send(response, 200, INBOX_SCRIPT, 'text/javascript; charset=utf-8');
    if (method === 'GET' && url.pathname === '/inbox.css') return send(response, 200, INBOX_STYLE, 'text/css; charset=utf-8');
    if (url.pathname === '/sign-in') return handleSignIn(request, response, options.auth);
    const visitor = visitorOf(request, options.auth);
    if (!visitor) return refuseUnsignedIn(response, options.auth);
    if (method === 'GET' && (url.pathname === '/' || url.pathname === '/fragment')) {
      const filters = queryOf(url, listFiltersSchema);
      const list = await readInboxList(client, filters, options.scope, filters.after);
      if (url.pathname === '/fragment') return sendPage(response, 200, itemsFragment(list, filters));
      const waitingRuns = await client.countWaitingRuns(options.scope).catch(() => undefined);
      return sendPage(response, 200, listPage(list, filters, waitingRuns, visitor.identity));
    }
    if (method === 'GET' && url.pathname === '/events') return live.listen(response, queryOf(url, watchSchema).watch);
    const runRoute = /^\/runs\/([^/]+)(\/fork)?$/.exec(url.pathname);
    if (runRoute) {
      const workflowId = runIdOf(runRoute[1]!);
      if (runRoute[2]) {
        if (method !== 'POST') throw new HttpError(405, 'Method not allowed');
        return fork(request, response, visitor, workflowId);
      }
      if (method !== 'GET') throw new HttpError(405, 'Method not allowed');
      queryOf(url, noQuerySchema);
      const { view, found } = await runView(visitor, workflowId);
      return sendPage(response, found ? 200 : 404, runPage(view));
    }
    // A run followed live (its stream and the page's script): behind the sign-in like everything of a run.
    if (await streams(request, response)) return;
    const call = /^\/calls\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const input = /^\/calls\/([^/]+)\/([^/]+)\/input$/.exec(url.pathname);
    if (input) {
      if (method !== 'POST') throw new HttpError(405, 'Method not allowed');
      const { holderId, callId } = callAddressOf(input[1]!, input[2]!);
      return addInput(request, response, visitor, holderId, callId);
    }
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

  const requests = new InFlight();
  const http = createServer((request, response) => {
    void requests.track(route(request, response)).catch((error: Error) => {
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
      await requests.settled();
    },
  };
}
