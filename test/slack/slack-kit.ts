import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import { parseInboxAuth } from '../../src/inbox/inbox-auth';
import { serveInbox, type InboxServer } from '../../src/inbox/inbox-server';
import { parseSlackConfig, type SlackConfig } from '../../src/slack/slack-config';
import { createSlackEndpoint, type SlackEndpoint } from '../../src/slack/slack-endpoint';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startTestWorker } from '../helpers/agent-test-env';
import { testConnection, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';
import { startFakeSlackApi, type FakeSlackApi, type SlackApiCall } from './fake-slack-api';
import { clickPayload, interactionBody, slackSignature, type ClickOptions } from './slack-signing';

export const BOT_TOKEN = 'xoxb-1111-2222-testbottoken';
export const SIGNING_SECRET = 'slack-signing-secret-0123456789';
export const NOTICE_SECRET = 'worker-notice-secret-0123456789';
export const CHANNEL = 'C0APPROVALS';
export const ALICE = 'U0ALICE';
export const BOB = 'U0BOB';
export const MALLORY = 'U0MALLORY';
/** Mapped, but no approver of the agent with approvers. */
export const ERIN = 'U0ERIN';
export const INBOX_TOKEN = 'carol-token-0123456789abcdef';

/** What the refund tool ran with, in order: the proof that a tool ran (and with which arguments) or did not. */
export const executed: Array<{ order_id: string; amount: number }> = [];

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  // The refinement is not in the JSON Schema: only the run's own check refuses such an edit.
  input: z.object({ order_id: z.string().refine((id) => id.startsWith('ORD-'), 'an order id starts with ORD-').describe('Order id'), amount: z.number().max(1000) }),
  execute: (input) => {
    executed.push(input);
    return `refunded ${input.amount} on ${input.order_id}`;
  },
});

export const AGENT = defineAgent({ name: 'slack-refunds', instructions: 'Refund when asked.', tools: [refund], permissions: { ask: ['refund'] } });
/** Only alice may answer; reminded after 1 s, escalated to bob after 2 s. */
export const REMINDED_AGENT = defineAgent({
  name: 'slack-reminded',
  instructions: 'Refund when asked.',
  tools: [refund],
  permissions: { ask: ['refund'] },
  approvals: { approvers: ['alice@example.com'], remind: ['1s'], escalate: { after: '2s', to: ['bob@example.com'] } },
});

export interface SlackKit {
  client: AgentClient;
  api: FakeSlackApi;
  inbox: InboxServer;
  config: SlackConfig;
  endpoint: SlackEndpoint;
  logs: string[];
  /** Replaces the mounted endpoint (a restart of the endpoint): undefined answers its paths 503, as a stopped endpoint would not answer. */
  swap(next: SlackEndpoint | undefined): void;
  newEndpoint(): Promise<SlackEndpoint>;
  stop(): Promise<void>;
}

/**
 * A worker whose webhook delivers notices to the Slack endpoint mounted in a real inbox, real
 * Temporal, a real state file, and a local server in place of Slack's Web API.
 */
export async function startSlackKit(): Promise<SlackKit> {
  const model: ScriptedModelServer = await startScriptedModelServer({
    script: (_request, info) =>
      info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'ORD-7', amount: 12 } }] } : `Done: ${info.toolResults[0]!.content}`,
  });
  const taskQueue = uniqueTaskQueue('slack');
  const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  const api = await startFakeSlackApi(BOT_TOKEN);
  const dir = await mkdtemp(join(tmpdir(), 'durable-agent-slack-'));
  const logs: string[] = [];
  const config = parseSlackConfig({
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    noticeSecret: NOTICE_SECRET,
    channel: CHANNEL,
    users: { [ALICE]: 'alice@example.com', [BOB]: 'bob@example.com', [ERIN]: 'erin@example.com' },
    stateFile: join(dir, 'state', 'slack-messages.json'),
    apiUrl: api.url,
    scope: `TaskQueue = '${taskQueue}'`,
    reconcileIntervalMs: 0,
  });
  const newEndpoint = () => createSlackEndpoint({ client, config, log: (level, message) => logs.push(`${level}: ${message}`) });
  let current: SlackEndpoint | undefined = await newEndpoint();
  const endpoints: SlackEndpoint[] = [current];
  const inbox = await serveInbox({
    client,
    port: 0,
    auth: parseInboxAuth({ tokens: [`carol=${INBOX_TOKEN}`], basicAuth: [] }),
    scope: `TaskQueue = '${taskQueue}'`,
    slack: {
      handle: async (request, response) => {
        if (current) return current.handle(request, response);
        if (!request.url?.startsWith('/slack/')) return false;
        request.resume();
        response.writeHead(503).end();
        return true;
      },
    },
  });
  const worker = await startTestWorker([AGENT, REMINDED_AGENT], taskQueue, model.baseURL, undefined, {}, { notifications: { webhooks: [{ url: `${inbox.url}/slack/notices`, secret: NOTICE_SECRET }] } });
  return {
    client,
    api,
    inbox,
    config,
    get endpoint() {
      return current!;
    },
    logs,
    swap(next) {
      current = next;
      if (next) endpoints.push(next);
    },
    newEndpoint,
    async stop() {
      await worker.stop();
      await inbox.close();
      for (const endpoint of endpoints) await endpoint.close();
      await api.close();
      await model.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The message the endpoint posted for the run's waiting call: its channel, ts and call. */
export async function postedMessage(api: FakeSlackApi, workflowId: string): Promise<{ channel: string; ts: string; callId: string; call: SlackApiCall }> {
  return waitFor(async () => {
    for (const call of api.callsOf('chat.postMessage')) {
      const actions = (call.args.blocks as Array<Record<string, any>> | undefined)?.find((block) => block.type === 'actions');
      const value = actions ? (JSON.parse(actions.elements[0].value as string) as { w: string; c: string }) : undefined;
      if (value?.w === workflowId) return { channel: call.result.channel as string, ts: call.result.ts as string, callId: value.c, call };
    }
    return undefined;
  }, `the Slack message of ${workflowId}`);
}

/** The chat.update calls of one message. */
export const updatesOf = (api: FakeSlackApi, ts: string) => api.callsOf('chat.update').filter((call) => call.args.ts === ts);

/** POSTs an interaction to the endpoint, signed as Slack signs it (or with the given headers). */
export function postInteraction(kit: Pick<SlackKit, 'inbox'>, payload: unknown, headers?: (body: string) => Record<string, string>): Promise<Response> {
  const body = interactionBody(payload);
  return fetch(`${kit.inbox.url}/slack/interactions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(headers ? headers(body) : slackSignature(body, SIGNING_SECRET)) },
    body,
  });
}

export function click(kit: Pick<SlackKit, 'inbox'>, options: Omit<ClickOptions, 'channel'> & { channel?: string }): Promise<Response> {
  return postInteraction(kit, clickPayload({ channel: CHANNEL, ...options }));
}
