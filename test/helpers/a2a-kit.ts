import { randomUUID } from 'node:crypto';
import { Role, type Part, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { serveA2aHttp, type A2aHttpOptions, type A2aHttpServer } from '../../src/a2a/serve-http';
import { textPart } from '../../src/a2a/a2a-parts';
import type { AgentDefinition } from '../../src/toolkit/define-agent';
import type { AgentTestEnv } from './agent-test-env';

/** A message request as the SDK's client takes it: text (or given parts), for a new task or for `taskId`. */
export function messageRequest(content: string | Part[], ids: { taskId?: string; contextId?: string } = {}, returnImmediately = false): SendMessageRequest {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: ids.contextId ?? '',
      taskId: ids.taskId ?? '',
      role: Role.ROLE_USER,
      parts: typeof content === 'string' ? [textPart(content)] : content,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: returnImmediately ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } : undefined,
    metadata: undefined,
  };
}

/** The text parts of a task's artifacts, joined. */
export function answerText(task: Task): string {
  return task.artifacts.flatMap((artifact) => artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))).join('');
}

export function statusText(task: Pick<Task, 'status'>): string {
  return (task.status?.message?.parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** A2A servers (in this process) on the test env's Temporal, and the SDK's clients of their agents. */
export class A2aKit {
  private readonly servers: A2aHttpServer[] = [];

  constructor(
    private readonly env: AgentTestEnv,
    private readonly agents: AgentDefinition[],
  ) {}

  async serve(options: Partial<A2aHttpOptions> = {}): Promise<A2aHttpServer> {
    const server = await serveA2aHttp(this.env.client, this.agents, { port: 0, ...options });
    this.servers.push(server);
    return server;
  }

  async clientOf(server: A2aHttpServer, agent: string, token?: string): Promise<Client> {
    const factory = token
      ? new ClientFactory({
          transports: [new (await import('@a2a-js/sdk/client')).JsonRpcTransportFactory({ fetchImpl: withToken(token) })],
          cardResolver: new (await import('@a2a-js/sdk/client')).DefaultAgentCardResolver({ fetchImpl: withToken(token) }),
        })
      : new ClientFactory();
    return factory.createFromUrl(server.agentUrls[agent]!);
  }

  async close(server: A2aHttpServer): Promise<void> {
    this.servers.splice(this.servers.indexOf(server), 1);
    await server.close();
  }

  async stop(): Promise<void> {
    for (const server of this.servers.splice(0)) await server.close();
  }
}

function withToken(token: string): typeof fetch {
  return (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), Authorization: `Bearer ${token}` } });
}
