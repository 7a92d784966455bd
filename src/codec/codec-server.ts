import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PayloadCodec } from '@temporalio/common';
import { HttpError, readJsonBody } from '../http';
import { answerPreflight, applyCors, hasBearerToken } from './codec-server-access';
import { isPayloadDecryptionError } from './payload-decryption-error';
import { payloadFromJson, payloadsBodySchema, payloadToJson } from './payload-json';

export const DEFAULT_CODEC_SERVER_PORT = 8888;
export const DEFAULT_CODEC_SERVER_HOST = '127.0.0.1';
export const DEFAULT_CORS_ORIGIN = 'http://localhost:8233';

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** 0 picks a free port. Default 8888. */
  port?: number;
  /** Default 127.0.0.1: only this machine reaches it. */
  host?: string;
  /** Browser origins allowed to call it (the Web UI's). Default http://localhost:8233. */
  corsOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Largest request body accepted. Default 64 MiB. */
  maxBodyBytes?: number;
  /** Told about every refused or failed request (never about payload contents). */
  log?: (line: string) => void;
}

export interface CodecServer {
  /** e.g. http://127.0.0.1:8888: the endpoint for the Web UI and `temporal --codec-endpoint`. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** `/encode`, `/decode`, also under a prefix such as `/{namespace}/decode` (the temporal CLI's endpoint template). */
function operationOf(url: string | undefined): 'encode' | 'decode' | undefined {
  const path = (url ?? '/').split('?')[0]!;
  return /\/(encode|decode)\/?$/.exec(path)?.[1] as 'encode' | 'decode' | undefined;
}

async function convert(codec: PayloadCodec, operation: 'encode' | 'decode', json: unknown): Promise<unknown> {
  const body = payloadsBodySchema.safeParse(json);
  if (!body.success) throw new HttpError(400, 'expected {"payloads":[{"metadata":{"<key>":"<base64>"},"data":"<base64>"}]}');
  const payloads = body.data.payloads.map(payloadFromJson);
  try {
    const converted = operation === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
    return { payloads: converted.map(payloadToJson) };
  } catch (error) {
    if (isPayloadDecryptionError(error)) throw new HttpError(400, error.message);
    throw error;
  }
}

/**
 * Temporal's codec server protocol over node:http: `POST /encode` and `POST /decode` take and
 * answer `{"payloads":[...]}` in protobuf's JSON form, so the Web UI and `temporal workflow show
 * --codec-endpoint` show decrypted payloads to whoever points them at it.
 */
export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  const origins = options.corsOrigins ?? [DEFAULT_CORS_ORIGIN];
  const limit = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const log = options.log ?? (() => undefined);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const what = `${request.method} ${request.url}`;
    if (!applyCors(request, response, origins)) {
      log(`${what}: 403, origin ${request.headers.origin} is not allowed (--cors-origin)`);
      return sendJson(response, 403, { error: 'origin not allowed' });
    }
    // Browsers send preflights without credentials, so they are answered before the token check.
    if (request.method === 'OPTIONS') return answerPreflight(response);
    if (options.token !== undefined && !hasBearerToken(request, options.token)) {
      log(`${what}: 401, no valid bearer token`);
      response.setHeader('WWW-Authenticate', 'Bearer');
      return sendJson(response, 401, { error: 'a bearer token is required' });
    }
    const operation = operationOf(request.url);
    if (!operation) return sendJson(response, 404, { error: 'not found: POST /encode or /decode' });
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST, OPTIONS');
      return sendJson(response, 405, { error: 'use POST' });
    }
    try {
      sendJson(response, 200, await convert(options.codec, operation, await readJsonBody(request, { maxBytes: limit })));
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      log(`${what}: ${status}, ${(error as Error).message}`);
      if (status === 413) response.setHeader('Connection', 'close');
      if (!response.headersSent) sendJson(response, status, { error: (error as Error).message });
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  const host = options.host ?? DEFAULT_CODEC_SERVER_HOST;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_CODEC_SERVER_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
