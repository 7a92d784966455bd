import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Web API call the endpoint made, as Slack would receive it: its method and its arguments (JSON fields parsed). */
export interface SlackApiCall {
  method: string;
  args: Record<string, any>;
  /** What the server answered. */
  result: Record<string, any>;
  at: number;
}

export interface FakeSlackApi {
  /** The base URL to give the WebClient (`slackApiUrl`). */
  url: string;
  calls: SlackApiCall[];
  callsOf(method: string): SlackApiCall[];
  close(): Promise<void>;
}

const JSON_FIELDS = new Set(['blocks', 'view', 'attachments', 'metadata']);

/**
 * A local server that answers as Slack's Web API does (`{ ok: true, ts, channel }`, `invalid_auth`
 * for another token), recording each call: Slack itself cannot be reached from the tests.
 */
export async function startFakeSlackApi(botToken: string, emails: Record<string, string> = {}): Promise<FakeSlackApi> {
  const calls: SlackApiCall[] = [];
  let next = 1;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').replace(/\?.*$/, '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const type = String(request.headers['content-type'] ?? '');
      const args: Record<string, any> = type.includes('json') ? (JSON.parse(raw || '{}') as Record<string, any>) : Object.fromEntries(new URLSearchParams(raw));
      for (const field of JSON_FIELDS) if (typeof args[field] === 'string') args[field] = JSON.parse(args[field] as string);
      const call: SlackApiCall = { method, args, result: {}, at: Date.now() };
      const answer = (body: Record<string, unknown>) => {
        call.result = body;
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${botToken}`) return answer({ ok: false, error: 'invalid_auth' });
      calls.push(call);
      switch (method) {
        case 'chat.postMessage':
          return answer({ ok: true, channel: args.channel, ts: `1700000000.${String(next++).padStart(6, '0')}`, message: { text: args.text } });
        case 'chat.update':
          return answer({ ok: true, channel: args.channel, ts: args.ts, text: args.text });
        case 'chat.postEphemeral':
          return answer({ ok: true, message_ts: `1700000001.${String(next++).padStart(6, '0')}` });
        case 'views.open':
          return answer({ ok: true, view: { id: `V${next++}`, ...args.view } });
        case 'users.info': {
          const email = emails[args.user as string];
          return email ? answer({ ok: true, user: { id: args.user, profile: { email } } }) : answer({ ok: false, error: 'user_not_found' });
        }
        default:
          return answer({ ok: false, error: 'unknown_method' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`,
    calls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
