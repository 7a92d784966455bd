import type { Duration } from '@temporalio/common';
import { z } from 'zod';
import { defineTool, type Tool, type ToolContext, type ToolPermission } from './define-tool';
import { readRemoteAnswer, remoteTaskSchema } from './a2a-remote-answer';

export interface A2aAgentOptions {
  /** The remote agent's A2A base URL: its card is at `<url>/.well-known/agent-card.json` (or give the card's URL). */
  url: string;
  /** The tool's name as the model sees it; by default the URL's last path segment (`…/agents/helper` → `helper`). */
  name?: string;
  /**
   * What the remote agent does, for the model to decide when to call it. Give it: the card's own
   * description is read only when the tool is called (tools are described to the model before).
   */
  description?: string;
  /** Sent as `Authorization: Bearer <token>` (read it from the environment; it never reaches the run's history); none when undefined. */
  token?: string | undefined;
  /** More headers for every request to the remote agent. */
  headers?: Record<string, string>;
  /** The parent's permission for calling the remote agent; 'allow' by default (make it 'ask' to confirm each call). */
  permission?: ToolPermission;
  /** One call's time limit, the remote agent's work included (default '10m'). */
  timeout?: Duration;
}

const input = z.object({ message: z.string().min(1).describe('The task for the remote agent, with everything it needs to know') }).strict();

const optionsSchema = z
  .object({
    url: z.string().url('url must be an absolute http(s) URL').refine((url) => /^https?:\/\//i.test(url), 'url must be an http(s) URL'),
    name: z.string().optional(),
    description: z.string().trim().min(1).optional(),
    token: z.string().min(1, 'token must not be empty').optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();

function defaultName(url: string): string {
  const { pathname, hostname } = new URL(url);
  const segment = pathname.replace(/\/\.well-known\/agent-card\.json$/, '').split('/').filter(Boolean).pop() ?? hostname;
  const name = decodeURIComponent(segment).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return name || 'a2a_agent';
}

/**
 * A remote A2A agent as a tool: a call sends the model's message to the agent (the A2A SDK's
 * client, JSON-RPC, its card read first), follows the task it makes to its end, and gives the
 * model the agent's answer. It runs on the worker like any tool, in an activity. A remote task
 * that waits for input (`input-required`, such as an approval on another durable-agent server)
 * is given to the model as such, with the task id and what it waits for: the tool does not answer
 * it, since that is for a person at the remote agent; a failed, cancelled or rejected task is an
 * error result.
 */
export function a2aAgent(options: A2aAgentOptions): Tool<typeof input> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new Error(`a2aAgent: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`).join('; ')}`);
  // With a slash at its end: the SDK finds the card relative to it.
  const baseUrl = `${options.url.replace(/\/\.well-known\/agent-card\.json$/, '').replace(/\/+$/, '')}/`;
  const name = options.name ?? defaultName(options.url);
  return defineTool({
    name,
    description: options.description ?? `Send a task to the remote agent at ${baseUrl} (A2A) and get its answer.`,
    input,
    permission: options.permission ?? 'allow',
    timeout: options.timeout ?? '10m',
    execute: (args, ctx) => callRemoteAgent(baseUrl, options, args.message, ctx),
  });
}

/** The A2A SDK, loaded at the first call; it requires the ESM-only `jose`, which Node 20.19 and later load (older ones: said so). */
async function loadSdk() {
  try {
    return { ...(await import('@a2a-js/sdk/client')), Role: (await import('@a2a-js/sdk')).Role };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_REQUIRE_ESM') throw new Error(`a2aAgent needs Node 20.19 or later on the worker (this is ${process.version}): the A2A SDK loads an ES module.`);
    throw error;
  }
}

async function callRemoteAgent(baseUrl: string, options: A2aAgentOptions, message: string, ctx: ToolContext): Promise<string> {
  const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, Role } = await loadSdk();
  const headers = { ...(options.headers ?? {}), ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) };
  const fetchImpl: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  const client = await factory.createFromUrl(baseUrl);
  const card = await client.getAgentCard();
  const request = {
    tenant: '',
    message: {
      // One message per call (its retries too): a remote agent that dedupes by id sees the same one.
      messageId: ctx.idempotencyKey,
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text' as const, value: message }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
  let taskId: string | undefined;
  let last: unknown;
  for await (const event of client.sendMessageStream(request, { signal: ctx.signal })) {
    ctx.heartbeat();
    const payload = event.payload;
    if (payload?.$case === 'message') return readRemoteAnswer(card.name, payload.value);
    if (payload?.$case === 'task') taskId = payload.value.id;
    else if (payload?.$case === 'statusUpdate') taskId ??= payload.value.taskId;
    last = payload?.value;
  }
  // The task as the remote agent keeps it: its final status and artifacts, whatever the stream showed of them.
  const task = taskId ? await client.getTask({ tenant: '', id: taskId, historyLength: 0 }, { signal: ctx.signal }) : last;
  return readRemoteAnswer(card.name, remoteTaskSchema.safeParse(task).success ? task : last);
}
