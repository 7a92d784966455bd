import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { hasBearerToken } from '../codec/codec-server-access';
import { isLoopbackHost, originAllowed, originRefusal, parseAllowedOrigins } from '../http';
import { readJsonRpcBody } from './http-body';
import { ALLOWED_ORIGINS_ENV } from './origin-policy';

export interface McpHttpOptions {
  port: number;
  /** 127.0.0.1 unless given: the server starts runs and answers approvals for whoever reaches it. */
  host?: string;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Origins whose pages may send requests, besides loopback ones (`Origin` header; requests without one pass). */
  allowedOrigins?: string[];
}

export interface McpHttpServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

function answer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  answer(response, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

/**
 * The MCP server over streamable HTTP at `/mcp`: one MCP session (and server) per client that
 * initializes. Every request with an `Origin` must come from a loopback origin or an allowed one
 * (browser pages elsewhere are refused); on loopback, requests must name a loopback Host too
 * (DNS-rebinding protection).
 */
export async function serveMcpHttp(makeServer: () => { connect(transport: Transport): Promise<void> }, options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const allowedOrigins = new Set(parseAllowedOrigins(options.allowedOrigins ?? []));
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedOrigins)) return refuse(response, 403, originRefusal(origin, ALLOWED_ORIGINS_ENV));
    if ((request.url ?? '').split('?')[0] !== '/mcp') return refuse(response, 404, 'Not found: the MCP endpoint is /mcp');
    if (options.token !== undefined && !hasBearerToken(request, options.token)) {
      return refuse(response, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
    }
    let message: unknown;
    if (request.method === 'POST') {
      const body = await readJsonRpcBody(request);
      if (!body.ok) return answer(response, body.status, body.reply);
      message = body.message;
    }
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(request, response, message);
    if (sessionId !== undefined) return refuse(response, 404, `Unknown MCP session '${String(sessionId)}': initialize a new one`);
    if (request.method !== 'POST') return refuse(response, 400, 'No MCP session: send an initialize request (POST) first');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await makeServer().connect(transport);
    await transport.handleRequest(request, response, message);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) refuse(response, 500, error.message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  if (isLoopbackHost(host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    host,
    port,
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
