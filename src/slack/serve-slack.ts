import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentClient } from '../client/agent-client';
import { createSlackEndpoint, type SlackEndpoint } from './slack-endpoint';
import type { SlackLog } from './slack-app';
import type { SlackConfig } from './slack-config';

export interface SlackServer {
  url: string;
  endpoint: SlackEndpoint;
  close(): Promise<void>;
}

/** The Slack endpoint on its own server (`durable-agent slack`): its two paths, 404 for anything else. */
export async function serveSlack(options: { client: AgentClient; config: SlackConfig; port: number; host?: string; log?: SlackLog }): Promise<SlackServer> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = await createSlackEndpoint({ client: options.client, config: options.config, ...(options.log ? { log: options.log } : {}) });
  const server = createServer((request, response) => {
    endpoint.handle(request, response).then(
      (handled) => {
        if (handled) return;
        request.resume();
        response.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: `Not found: the Slack endpoint answers ${endpoint.paths.interactions} and ${endpoint.paths.notices}` }));
      },
      () => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    endpoint,
    async close() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
