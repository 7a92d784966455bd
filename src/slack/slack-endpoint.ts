import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifySlackRequest, webApi } from '@slack/bolt';
import type { AgentClient } from '../client/agent-client';
import { HttpError, InFlight, readBody } from '../http';
import { CallMessages } from './call-messages';
import { parseInteraction } from './interaction-payloads';
import { MessageStore } from './message-store';
import { ReplayGuard } from './replay-guard';
import { NOTICE_SIGNATURE_HEADER, receivedNoticeSchema, signedByWorker } from './received-notice';
import { boltLogger, createSlackApp, PARSED_INTERACTION, type SlackLog } from './slack-app';
import type { SlackConfig } from './slack-config';

/** Interactions carry a modal's whole state at most; notices are small. */
const MAX_INTERACTION_BYTES = 2 * 1024 * 1024;
const MAX_NOTICE_BYTES = 1024 * 1024;

export interface SlackEndpointOptions {
  client: AgentClient;
  config: SlackConfig;
  /** Warnings and errors (never a secret, never a body). Default: stderr. */
  log?: SlackLog;
}

/** The Slack endpoint as a server mounts it: `handle` answers its own paths and says false to the rest. */
export interface SlackEndpoint {
  /** `<basePath>/interactions` (Slack's Request URL) and `<basePath>/notices` (the worker's webhook). */
  readonly paths: { interactions: string; notices: string };
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** Catches up now (see CallMessages.reconcile); also run at start and every reconcileIntervalMs. */
  reconcile(): Promise<{ updated: number; posted: number }>;
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Two-way Slack for waiting calls: Bolt answers the buttons and the Edit modal (signature and
 * five-minute window checked with the signing secret), the worker's notices arrive as a signed
 * webhook. Secrets stay in this closure: they are not logged, not sent to runs, not in any tool's reach.
 */
export async function createSlackEndpoint(options: SlackEndpointOptions): Promise<SlackEndpoint> {
  const { client, config } = options;
  const log: SlackLog = options.log ?? ((level, message) => process.stderr.write(`${level}: ${message}\n`));
  const store = await MessageStore.open(config.stateFile);
  const slack = new webApi.WebClient(config.botToken, {
    logger: boltLogger(log),
    // A failed call fails the notice, which the worker delivers again: no retries of its own here.
    retryConfig: { retries: 0 },
    ...(config.apiUrl ? { slackApiUrl: config.apiUrl.endsWith('/') ? config.apiUrl : `${config.apiUrl}/` } : {}),
  });
  const messages = new CallMessages(client, slack, store, config.channel, config.scope);
  const paths = { interactions: `${config.basePath}/interactions`, notices: `${config.basePath}/notices` };
  const { receiver } = createSlackApp({ config, client, slack, messages, log }, paths.interactions);
  const replays = new ReplayGuard();
  const work = new InFlight();

  /** Checked here with Bolt's own verifySlackRequest so that a malformed payload is a clear 400 (and only once it is Slack's): Bolt's receiver checks again. */
  async function interaction(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request, { maxBytes: MAX_INTERACTION_BYTES });
    const signature = header(request, 'x-slack-signature') ?? '';
    const timestamp = Number(header(request, 'x-slack-request-timestamp'));
    try {
      verifySlackRequest({ signingSecret: config.signingSecret, body, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp } });
    } catch (error) {
      return sendJson(response, 401, { error: `Unauthorized: ${(error as Error).message.replace(/^Failed to verify authenticity: /, '')}` });
    }
    const replay = replays.refusal(signature, timestamp);
    if (replay) return sendJson(response, 401, { error: `Unauthorized: ${replay}` });
    const parsed = parseInteraction(body, header(request, 'content-type'));
    if (!parsed.ok) return sendJson(response, 400, { error: `Bad request: ${parsed.message}` });
    const buffered = request as IncomingMessage & { rawBody?: Buffer } & Record<symbol, unknown>;
    buffered.rawBody = Buffer.from(body, 'utf8');
    if ('interaction' in parsed) buffered[PARSED_INTERACTION] = parsed.interaction;
    receiver.requestListener(request, response);
  }

  async function notice(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request, { maxBytes: MAX_NOTICE_BYTES });
    if (!signedByWorker(body, request.headers[NOTICE_SIGNATURE_HEADER], config.noticeSecret)) {
      return sendJson(response, 401, { error: 'Unauthorized: the notice is not signed with the notice secret (X-Durable-Agent-Signature)' });
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return sendJson(response, 400, { error: 'Bad request: the notice is not JSON' });
    }
    const parsed = receivedNoticeSchema.safeParse(json);
    if (!parsed.success) {
      return sendJson(response, 400, { error: `Bad request: not a notice: ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` });
    }
    try {
      sendJson(response, 200, { done: await messages.onNotice(parsed.data) });
    } catch (error) {
      // The worker delivers the notice again (with backoff, for an hour).
      log('warn', `slack: the ${parsed.data.event} notice of ${parsed.data.callId} is not done yet: ${(error as Error).message}`);
      sendJson(response, 502, { error: `Not done: ${(error as Error).message}` });
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const path = new URL(request.url ?? '/', 'http://slack').pathname;
    const route = path === paths.interactions ? interaction : path === paths.notices ? notice : undefined;
    if (!route) return false;
    if (request.method !== 'POST') {
      response.writeHead(405, { Allow: 'POST' }).end();
      return true;
    }
    await work.track(route(request, response)).catch((error: unknown) => {
      if (error instanceof HttpError) return sendJson(response, error.status, { error: error.message });
      log('error', `slack: ${path}: ${(error as Error).message}`);
      sendJson(response, 500, { error: 'Internal error' });
    });
    return true;
  }

  const catchUp = () =>
    work.track(messages.reconcile()).catch((error: Error) => {
      log('warn', `slack: catching up failed, tried again later: ${error.message}`);
      return { updated: 0, posted: 0 };
    });
  void catchUp();
  const timer = config.reconcileIntervalMs > 0 ? setInterval(() => void catchUp(), config.reconcileIntervalMs) : undefined;
  timer?.unref();

  return {
    paths,
    handle,
    reconcile: () => messages.reconcile(),
    async close() {
      if (timer) clearInterval(timer);
      await work.settled();
    },
  };
}
