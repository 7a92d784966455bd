import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard } from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, ServerCallContext, STATE_HEADERS_KEY, UnauthenticatedUser, validateVersion, type User } from '@a2a-js/sdk/server';
import type { AgentClient } from '../client/agent-client';
import { hasBearerToken } from '../codec/codec-server-access';
import { EventStream, HttpError, InFlight, isLoopbackHost, loopbackHostHeader, originAllowed, originRefusal, parseAllowedOrigins, readJsonBody } from '../http';
import type { AgentDefinition } from '../toolkit/define-agent';
import { agentCardOf } from './agent-card';
import { A2A_ALLOWED_ORIGINS_ENV } from './allowed-origins';
import { ABORT_SIGNAL_KEY, RunRequestHandler } from './run-request-handler';
import { RunTaskReader } from './run-task-reader';

export interface A2aHttpOptions {
  port: number;
  /** 127.0.0.1 unless given: the server starts runs and answers approvals for whoever reaches it. */
  host?: string;
  /** When set, every JSON-RPC request needs `Authorization: Bearer <token>` (the cards stay public, and say so). */
  token?: string;
  /** Origins whose pages may send requests, besides loopback ones (`Origin` header; requests without one pass). */
  allowedOrigins?: string[];
  /** The base URL clients reach the server at, when not `http://host:port` (behind a proxy or TLS). */
  publicUrl?: string;
}

export interface A2aHttpServer {
  /** The base URL: each agent is at `<url>/agents/<name>/`, its card at `<url>/agents/<name>/.well-known/agent-card.json`. */
  url: string;
  host: string;
  port: number;
  /** Each agent's endpoint (its card's base URL), by name. */
  agentUrls: Record<string, string>;
  close(): Promise<void>;
}

/** The largest JSON-RPC body taken: a prompt over the run's payload limit is refused by the start itself. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const CARD_PATH = '/.well-known/agent-card.json';
const KEEP_ALIVE_MS = 15_000;
const A2A_VERSION_HEADER = 'a2a-version';

const authenticated: User = {
  get isAuthenticated() {
    return true;
  },
  get userName() {
    return 'bearer-token';
  },
};

function answer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function refuse(response: ServerResponse, error: HttpError): void {
  answer(response, error.status, { jsonrpc: '2.0', id: null, error: { code: -32600, message: error.message } }, error.headers);
}

interface ServedAgent {
  name: string;
  card: AgentCard;
  v1: JsonRpcTransportHandler;
  legacy: LegacyJsonRpcTransportHandler;
}

/**
 * The agents over A2A (JSON-RPC, A2A 1.0 and 0.3) on node:http: each at `/agents/<name>`, with its
 * card at `/agents/<name>/.well-known/agent-card.json` (and at `/.well-known/agent-card.json` when
 * there is one agent). The SDK's JSON-RPC transport handlers parse and answer the calls; the
 * handler behind them reads and drives runs in Temporal. The MCP server's rules hold: an `Origin`
 * must be a loopback one or allowed, on loopback the `Host` must name loopback or the public URL's
 * host (DNS rebinding), and with a token every call needs it.
 */
export async function serveA2aHttp(client: AgentClient, agents: AgentDefinition[], options: A2aHttpOptions): Promise<A2aHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const allowedOrigins = new Set(parseAllowedOrigins(options.allowedOrigins ?? []));
  const reader = new RunTaskReader(client);
  const served = new Map<string, ServedAgent>();
  const inFlight = new InFlight();
  const open = new Set<AbortController>();
  let base = '';
  // A proxy in front of a loopback server passes the public host on (Host): that one is taken too.
  const publicHost = options.publicUrl ? new URL(options.publicUrl).host : undefined;

  const route = (path: string): { agent?: ServedAgent; card: boolean } | undefined => {
    if (path === CARD_PATH) return served.size === 1 ? { agent: [...served.values()][0]!, card: true } : { card: true };
    const match = /^\/agents\/([^/]+)(\/\.well-known\/agent-card\.json)?\/?$/.exec(path);
    if (!match) return undefined;
    const agent = served.get(decodeURIComponent(match[1]!));
    return agent ? { agent, card: match[2] !== undefined } : undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedOrigins)) {
      throw new HttpError(403, originRefusal(origin, A2A_ALLOWED_ORIGINS_ENV));
    }
    if (isLoopbackHost(host) && !loopbackHostHeader(request.headers.host) && request.headers.host !== publicHost) {
      throw new HttpError(403, 'Forbidden: this server listens on loopback and takes requests for a loopback host (or the --public-url host) only.');
    }
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/agents' && request.method === 'GET') {
      return answer(response, 200, { agents: [...served.values()].map((agent) => ({ name: agent.name, url: `${base}/agents/${encodeURIComponent(agent.name)}/`, card: `${base}/agents/${encodeURIComponent(agent.name)}${CARD_PATH}` })) });
    }
    const target = route(path);
    if (!target?.agent) {
      const names = [...served.keys()].map((name) => `/agents/${name}`).join(', ');
      throw new HttpError(404, `Not found: the agents are at ${names} (each card at <agent>${CARD_PATH}; GET /agents lists them)`);
    }
    if (target.card) {
      if (request.method !== 'GET') throw new HttpError(405, 'An agent card is read with GET', { Allow: 'GET' });
      return answer(response, 200, AgentCard.toJSON(target.agent.card), { 'Cache-Control': 'no-cache' });
    }
    if (request.method !== 'POST') throw new HttpError(405, 'A2A calls are JSON-RPC requests sent with POST', { Allow: 'POST' });
    if (options.token !== undefined && !hasBearerToken(request, options.token)) {
      throw new HttpError(401, 'Unauthorized: send Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
    }
    let body: unknown;
    try {
      body = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES, tooLarge: `the request is over ${MAX_BODY_BYTES} bytes`, notJson: 'Parse error: the body is not JSON' });
    } catch (error) {
      // JSON-RPC's own code for a body that is not JSON; an oversized one is refused as a request.
      if (error instanceof HttpError && error.status === 400) return answer(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: error.message } });
      throw error;
    }
    await callAgent(target.agent, request, response, body);
  };

  const callAgent = async (agent: ServedAgent, request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const header = request.headers[A2A_VERSION_HEADER];
    const versionHeader = typeof header === 'string' && header.trim() ? header.trim() : undefined;
    const method = (body as { method?: unknown } | null)?.method;
    const legacy = versionHeader === '0.3' || (versionHeader === undefined && typeof method === 'string' && isLegacyJsonRpcMethod(method));
    const id = (body as { id?: string | number } | null)?.id ?? null;
    const toError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const aborter = new AbortController();
    open.add(aborter);
    response.once('close', () => {
      open.delete(aborter);
      aborter.abort();
    });
    const requestedVersion = legacy ? '0.3' : versionHeader ?? '1.0';
    const context = new ServerCallContext({
      user: options.token !== undefined ? authenticated : new UnauthenticatedUser(),
      requestedVersion,
      state: new Map<string, unknown>([
        [STATE_HEADERS_KEY, request.headers],
        [ABORT_SIGNAL_KEY, aborter.signal],
      ]),
    });
    let result;
    try {
      validateVersion(requestedVersion, agent.card, 'JSONRPC');
      result = await (legacy ? agent.legacy : agent.v1).handle(body as Record<string, unknown>, context);
    } catch (error) {
      return answer(response, 200, { jsonrpc: '2.0', id, error: toError(error) });
    }
    if (!(Symbol.asyncIterator in (result as object))) return answer(response, 200, result);
    const events = (result as AsyncGenerator<unknown>)[Symbol.asyncIterator]();
    let first: IteratorResult<unknown>;
    try {
      first = await events.next();
    } catch (error) {
      // Refused before anything streamed (an unknown task, a message that is no answer): a plain JSON-RPC error.
      return answer(response, 200, { jsonrpc: '2.0', id, error: toError(error) });
    }
    const stream = new EventStream(response, { keepAliveMs: KEEP_ALIVE_MS, unbuffered: true });
    try {
      for (let next = first; !next.done; next = await events.next()) {
        if (stream.closed) break;
        await stream.send({ data: JSON.stringify(next.value) });
      }
    } catch (error) {
      await stream.send({ event: 'error', data: JSON.stringify({ jsonrpc: '2.0', id, error: toError(error) }) });
    } finally {
      void events.return(undefined).catch(() => undefined);
      stream.end();
    }
  };

  const http = createServer((request, response) => {
    void inFlight.track(
      handle(request, response).catch((error: unknown) => {
        if (response.headersSent) return;
        if (error instanceof HttpError) refuse(response, error);
        else answer(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: (error as Error)?.message ?? String(error) } });
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  base = (options.publicUrl ?? `http://${shownHost}:${port}`).replace(/\/+$/, '');
  const agentUrls: Record<string, string> = {};
  for (const definition of agents) {
    // With its slash: clients find the card relative to it (`.well-known/agent-card.json`).
    const url = `${base}/agents/${encodeURIComponent(definition.name)}/`;
    agentUrls[definition.name] = url;
    const card = agentCardOf(definition, url, { token: options.token !== undefined });
    const handler = new RunRequestHandler(client, definition.name, card, reader);
    served.set(definition.name, { name: definition.name, card, v1: new JsonRpcTransportHandler(handler), legacy: new LegacyJsonRpcTransportHandler(handler) });
  }
  return {
    url: base,
    host,
    port,
    agentUrls,
    close: async () => {
      for (const aborter of open) aborter.abort();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await inFlight.settled();
    },
  };
}
