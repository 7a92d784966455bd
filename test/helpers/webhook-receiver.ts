import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  headers: IncomingMessage['headers'];
  /** The raw body, as signed. */
  raw: string;
  body: Record<string, unknown>;
}

/** How the receiver answers the nth POST (0-based): a status, or 'hang' (never answers). */
export type Answer = (index: number) => number | 'hang';

/** A real HTTP server on loopback that records every POST and answers as told. */
export interface WebhookReceiver {
  url: string;
  posts: ReceivedPost[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: Answer = () => 200): Promise<WebhookReceiver> {
  const posts: ReceivedPost[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const index = posts.length;
      posts.push({ path: request.url ?? '', headers: request.headers, raw, body: JSON.parse(raw) as Record<string, unknown> });
      const status = answer(index);
      if (status === 'hang') hanging.push(response);
      else response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posts,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
