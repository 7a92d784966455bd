import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import type { LiveDelta } from '../common/contracts/live-deltas';
import type { LiveCalls } from '../activities/live-calls';
import { EventStream } from '../http';

/** Comments on an idle stream, so proxies and clients keep it open. */
const KEEP_ALIVE_MS = 15_000;
const CALL_PATH = /^\/calls\/([A-Za-z0-9_-]{32})$/;

export interface LiveEndpoint {
  /** The address clients reach it at, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

export interface LiveEndpointOptions {
  calls: LiveCalls;
  host: string;
  port: number;
  /** Advertised instead of the bound address (behind a proxy, or bound to 0.0.0.0). */
  publicUrl?: string;
  /** The worker's payload codecs: a delta is sent as a payload they encoded, like everything else of a run. */
  codecs: readonly PayloadCodec[];
}

async function encoded(delta: LiveDelta, codecs: readonly PayloadCodec[]): Promise<Payload> {
  let payloads = [defaultPayloadConverter.toPayload(delta)!];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads[0]!;
}

function wirePayload(payload: Payload): { metadata: Record<string, string>; data: string } {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) metadata[key] = Buffer.from(value as Uint8Array).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}

/** The position to start from: `?from=N`, or after the `Last-Event-ID` an EventSource sends when it reconnects. */
function startPosition(req: IncomingMessage, url: URL): number | undefined {
  const lastId = req.headers['last-event-id'];
  const raw = typeof lastId === 'string' && lastId !== '' ? String(Number(lastId) + 1) : (url.searchParams.get('from') ?? '0');
  const from = Number(raw);
  return Number.isInteger(from) && from >= 0 ? from : undefined;
}

function serveCall(req: IncomingMessage, res: ServerResponse, options: LiveEndpointOptions): void {
  const url = new URL(req.url ?? '/', 'http://live');
  const path = CALL_PATH.exec(url.pathname)?.[1];
  if (req.method !== 'GET' || !path) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this endpoint serves GET /calls/<path> of streaming model calls.\n');
    return;
  }
  const from = startPosition(req, url);
  if (from === undefined) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('`from` (or Last-Event-ID) must be a whole number of at least 0.\n');
    return;
  }
  // Encoding is asynchronous (a codec may be); one chain keeps the deltas in order. The chain runs
  // after this function has returned, so the stream below is open by the time it writes.
  let chain = Promise.resolve();
  let stream: EventStream | undefined;
  const stop = options.calls.follow(path, from, {
    delta(position, delta) {
      chain = chain.then(async () => {
        const data = JSON.stringify(wirePayload(await encoded(delta, options.codecs)));
        void stream?.send({ id: position, event: 'delta', data });
      });
    },
    end() {
      chain = chain.then(() => {
        void stream?.send({ event: 'end', data: '{}' });
        stream?.end();
      });
    },
  });
  if (!stop) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('This worker has no such call (it ended over two minutes ago, or it ran on another worker).\n');
    return;
  }
  stream = new EventStream(res, { keepAliveMs: KEEP_ALIVE_MS });
  res.on('close', () => stop());
}

/**
 * The worker's live endpoint: server-sent events of its streaming model calls' deltas, by the
 * unguessable path a call's first heartbeat names. Nothing here reaches the run's history.
 */
export async function startLiveEndpoint(options: LiveEndpointOptions): Promise<LiveEndpoint> {
  const server: Server = createServer((req, res) => serveCall(req, res, options));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // An idle worker forgets ended calls too, not only when the next one opens.
  const pruning = setInterval(() => options.calls.prune(), 30_000).unref();
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: (options.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(pruning);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
