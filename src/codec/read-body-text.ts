import type { IncomingMessage } from 'node:http';

/** The body's text, or undefined once it is over `maxBytes` (the rest is read and dropped). */
export function readBodyText(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) {
    request.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    request.once('end', () => resolve(size <= maxBytes ? Buffer.concat(chunks).toString('utf8') : undefined));
    request.once('error', reject);
  });
}

