import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

export interface ReadBodyOptions {
  /** The largest body taken, in bytes (`Infinity` for no limit). */
  maxBytes: number;
  /** The 413's message. Default: `the body is over <maxBytes> bytes`. */
  tooLarge?: string;
}

export interface ReadJsonBodyOptions extends ReadBodyOptions {
  /** The 400's message for a body that is not JSON. Default: `the body is not JSON`. */
  notJson?: string;
}

/**
 * A request's body as UTF-8 text. A body over `maxBytes` is refused with a 413 HttpError: at once
 * when its Content-Length says so, else as soon as it passes the limit. Either way the rest is read
 * and dropped, so what is kept stays under the limit and the connection can still be answered.
 */
export function readBody(request: IncomingMessage, options: ReadBodyOptions): Promise<string> {
  const { maxBytes } = options;
  const refusal = () => new HttpError(413, options.tooLarge ?? `the body is over ${maxBytes} bytes`);
  if (Number(request.headers['content-length']) > maxBytes) {
    request.resume();
    return Promise.reject(refusal());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      const before = size;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (before <= maxBytes) {
        chunks.length = 0;
        reject(refusal());
      }
    });
    request.once('end', () => {
      if (size <= maxBytes) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.once('error', reject);
  });
}

/** A request's body parsed as JSON: readBody's 413, and a 400 HttpError when it is not JSON. */
export async function readJsonBody(request: IncomingMessage, options: ReadJsonBodyOptions): Promise<unknown> {
  const text = await readBody(request, options);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, options.notJson ?? 'the body is not JSON');
  }
}
