/*
 * The model client's transport: the openai SDK takes it as its `fetch`. Node's global fetch
 * (undici, with WHATWG streams on both sides of every request) costs the worker several times the
 * CPU of a plain node:http request on a kept-alive socket for the same call (bench/fetch-cost.ts
 * measures the two side by side), and the model call is the step the worker repeats most. Requests
 * this transport does not speak (a body that is a stream, a form or a blob) go to the global fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

type FetchInput = Parameters<typeof fetch>[0];

/** Statuses whose response has no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function abortError(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

function plainBody(body: RequestInit['body']): string | Uint8Array | undefined | false {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return false;
}

function decoded(response: IncomingMessage): Readable {
  switch (response.headers['content-encoding']) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'br':
      return response.pipe(createBrotliDecompress());
    case 'deflate':
      return response.pipe(createInflate());
    default:
      return response;
  }
}

function headersOf(response: IncomingMessage, body: Readable): Headers {
  const headers = new Headers();
  for (let i = 0; i < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
  // The body is handed over decoded: its encoding and length no longer describe it.
  if (body !== response) {
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  return headers;
}

/** A `fetch` for the openai client over node:http(s) with kept-alive sockets (one agent per client). */
export function keepAliveFetch(): typeof fetch {
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
  const send = (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) return fetch(input, init);
    const url = new URL(input);
    const body = plainBody(init.body);
    if (body === false || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(input, init);
    const protocol: keyof typeof agents = url.protocol;
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const request = (protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        agent: agents[protocol],
      });
      let response: IncomingMessage | undefined;
      // One listener for the whole exchange, removed when it is over: a listener left on a signal
      // that outlives the call keeps the response (and the activity's context with it) in memory.
      const onAbort = () => {
        const error = abortError(signal!) as Error;
        request.destroy(error);
        response?.destroy(error);
      };
      const over = () => signal?.removeEventListener('abort', onAbort);
      signal?.addEventListener('abort', onAbort, { once: true });
      request.once('error', (error) => {
        over();
        reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: error }));
      });
      request.once('response', (incoming) => {
        response = incoming;
        const status = incoming.statusCode ?? 0;
        const stream = decoded(incoming);
        if (stream !== incoming) incoming.once('error', (error) => stream.destroy(error));
        incoming.once('close', over);
        const headers = headersOf(incoming, stream);
        if (NO_BODY.has(status) || init.method === 'HEAD') {
          incoming.resume();
          resolve(new Response(null, { status, statusText: incoming.statusMessage, headers }));
          return;
        }
        resolve(new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, statusText: incoming.statusMessage, headers }));
      });
      request.end(body);
    });
  };
  return send as typeof fetch;
}
