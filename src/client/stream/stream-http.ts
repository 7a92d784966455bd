import type { IncomingMessage, ServerResponse } from 'node:http';
import { WorkflowNotFoundError } from '@temporalio/client';
import { EventStream } from '../../http';
import type { AgentClient } from '../agent-client';
import { describeExecution } from '../run-execution';
import { InvalidCursorError } from './stream-items';
import { STREAM_PAGE_SCRIPT, streamPageHtml } from './stream-page';

export interface RunStreamHandlerOptions {
  client: AgentClient;
  /** Where the routes are mounted, e.g. `/agents` (default: the root). */
  basePath?: string;
  /** Serve the page that follows a run (`GET <base>/runs/<id>`) and its script. Default true. */
  page?: boolean;
}

/** Answers a request when it is one of the stream's routes; false leaves it to the rest of the server. */
export type RunStreamHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** Comments on a quiet stream, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function refuse(response: ServerResponse, status: number, message: string): true {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS }).end(`${message}\n`);
  return true;
}

function checkedBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new TypeError(`basePath '${basePath}' is not a path such as /agents (letters, digits, . _ ~ - between slashes).`);
  }
  return trimmed;
}

/**
 * Routes that let a browser follow runs, to mount in any Node HTTP server (the inbox mounts them
 * behind its sign-in; put them behind yours):
 *
 * - `GET <base>/runs/<id>/stream`: the run's stream as server-sent events. Each item is one event
 *   named by its type (`event`, `text_delta`, `tool_call_delta`, `model_call_restarted`) with the
 *   item as JSON, and its cursor as the event's id: a browser's EventSource reconnects after it by
 *   itself (Last-Event-ID); `?from=<cursor>` starts after one. `end` closes a run's stream;
 *   `stream_error` says why one stopped. A cursor that is not one of this run's is a 400.
 * - `GET <base>/runs/<id>`: a page that follows the run; `GET <base>/run-stream.js` its script.
 *
 * Run ids are one path segment, URL-encoded (sub-agent runs' ids hold slashes).
 */
export function createRunStreamHandler(options: RunStreamHandlerOptions): RunStreamHandler {
  const base = checkedBasePath(options.basePath ?? '');
  const withPage = options.page !== false;
  const runRoute = new RegExp(`^${base.replace(/[.]/g, '\\.')}/runs/([^/]+)(/stream)?$`);
  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stream');
    if (request.method !== 'GET') return false;
    if (withPage && url.pathname === `${base}/run-stream.js`) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...PAGE_HEADERS }).end(STREAM_PAGE_SCRIPT);
      return true;
    }
    const match = runRoute.exec(url.pathname);
    if (!match) return false;
    let workflowId: string;
    try {
      workflowId = decodeURIComponent(match[1]!);
    } catch {
      return refuse(response, 400, 'The run id in the path is not URL-encoded text.');
    }
    if (!match[2]) {
      if (!withPage) return false;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS }).end(streamPageHtml(base));
      return true;
    }
    return streamTo(response, options.client, workflowId, fromOf(request, url));
  };
}

function fromOf(request: IncomingMessage, url: URL): string | undefined {
  const lastId = request.headers['last-event-id'];
  if (typeof lastId === 'string' && lastId !== '') return lastId;
  return url.searchParams.get('from') ?? undefined;
}

async function streamTo(response: ServerResponse, client: AgentClient, workflowId: string, from: string | undefined): Promise<true> {
  const run = client.get(workflowId);
  const stop = new AbortController();
  let items: ReturnType<typeof run.stream>;
  try {
    items = run.stream({ ...(from ? { from } : {}), signal: stop.signal });
    await describeExecution(run.handle);
  } catch (error) {
    if (error instanceof InvalidCursorError) return refuse(response, 400, error.message);
    if (error instanceof WorkflowNotFoundError) return refuse(response, 404, `No run ${workflowId}.`);
    throw error;
  }
  const stream = new EventStream(response, { keepAliveMs: KEEP_ALIVE_MS, charset: true, unbuffered: true });
  response.on('close', () => stop.abort());
  try {
    for await (const item of items) {
      const { cursor, ...rest } = item;
      void stream.send({ id: cursor, event: item.type, data: JSON.stringify(rest) });
    }
    if (!stop.signal.aborted) void stream.send({ event: 'end', data: '{}' });
  } catch (error) {
    if (!stop.signal.aborted) void stream.send({ event: 'stream_error', data: JSON.stringify({ message: (error as Error).message }) });
  } finally {
    stream.end();
  }
  return true;
}
