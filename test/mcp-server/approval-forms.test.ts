import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { interceptIncoming, startMcpServerKit, textOf, textsOf, type McpServerKit } from '../helpers/mcp-server-kit';
import { waitFor } from '../helpers/wait-for';

const idsOf = (request: ElicitRequest) => {
  const [, runId, callId] = /\(run (\S+), call (\S+)\)/.exec((request.params as { message: string }).message)!;
  return { runId: runId!, callId: callId! };
};

describe('durable-agent mcp: approval forms stay open for as long as the tool call, and no answer is dropped', () => {
  let kit: McpServerKit;

  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  test(
    "a form answered later than the SDK's default request timeout (60 s) is taken: the server puts no cap on it",
    async () => {
      let withdrawn = false;
      const client = await kit.overStdio(async (_request, extra) => {
        extra.signal.addEventListener('abort', () => (withdrawn = true));
        await sleep(DEFAULT_REQUEST_TIMEOUT_MSEC + 3_000);
        return { action: 'accept', content: { decision: 'approve' } };
      });
      // The client keeps its tool call open longer than its own default, as a person's client would.
      const result = await client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } }, CallToolResultSchema, {
        timeout: DEFAULT_REQUEST_TIMEOUT_MSEC * 3,
      });
      expect(result.isError).toBeFalsy();
      expect(textsOf(result)).toEqual(['Refunds: refunded 30 on ORD-1']);
      expect(withdrawn).toBe(false);
    },
    DEFAULT_REQUEST_TIMEOUT_MSEC * 3 + 30_000,
  );

  test('over HTTP the form travels on the tool call and its answer is taken', async () => {
    const server = await kit.httpServer();
    const client = await kit.overHttp(server.url, undefined, async () => ({ action: 'accept', content: { decision: 'deny', reason: 'not over HTTP' } }));
    const result = await client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    expect(textOf(result)).toBe('Refunds: Permission denied by user: not over HTTP');
  });

  test('a form open while the call is approved elsewhere is withdrawn, and the client is told who answered', async () => {
    const asked: ElicitRequest[] = [];
    const withdrawals: string[] = [];
    const logs: string[] = [];
    const progress: string[] = [];
    const client = await kit.overStdio(
      (request, extra) =>
        new Promise((resolve) => {
          asked.push(request);
          extra.signal.addEventListener('abort', () => {
            withdrawals.push(String(extra.signal.reason));
            resolve({ action: 'cancel' });
          });
        }),
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    const call = client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } }, CallToolResultSchema, {
      onprogress: (update) => progress.push(update.message ?? ''),
    });
    const { runId, callId } = idsOf(await waitFor(async () => asked[0], 'the form'));
    await kit.env.client.get(runId).approve(callId);

    const result = await call;
    const told = `The approval form for refund (run ${runId}, call ${callId}) was withdrawn: the call was already approved elsewhere (the CLI, the library, the Web UI or another MCP client): approved.`;
    expect(textsOf(result)).toEqual(['Refunds: refunded 30 on ORD-1', told]);
    expect(withdrawals).toEqual([expect.stringContaining('the call was already approved elsewhere')]);
    expect(logs).toContain(told);
    expect(progress).toContain(told);
    expect(asked).toHaveLength(1);
  });

  test('an answer that reaches the server after the call was answered elsewhere is refused, and the client is told why', async () => {
    const asked: ElicitRequest[] = [];
    const logs: string[] = [];
    const cancellations: unknown[] = [];
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const client = await kit.overStdio(async (request) => {
      asked.push(request);
      await answered;
      return { action: 'accept', content: { decision: 'deny', reason: 'too late' } };
    });
    // A client that does not act on the withdrawal (the spec lets a cancellation arrive too late).
    interceptIncoming(kit.transportOf(client), (message) => {
      if ('method' in message && message.method === 'notifications/cancelled') cancellations.push(message.params);
      return !('method' in message && message.method === 'notifications/cancelled');
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    const call = client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    const { runId, callId } = idsOf(await waitFor(async () => asked[0], 'the form'));
    await kit.env.client.get(runId).approve(callId);
    await waitFor(async () => cancellations[0], 'the withdrawal of the form');
    answer();

    const refused = `Your answer (deny) to refund (run ${runId}, call ${callId}) was not taken: the call was already approved elsewhere (the CLI, the library, the Web UI or another MCP client): approved.`;
    await waitFor(async () => (logs.includes(refused) ? true : undefined), 'the refusal');
    const result = await call;
    expect(textOf(result)).toBe('Refunds: refunded 30 on ORD-1');
    expect(cancellations).toEqual([expect.objectContaining({ requestId: expect.stringMatching(/^durable-agent-/) })]);
    expect((await kit.env.client.get(runId).eventsAfter(0)).filter((event) => event.type === 'permission_decided')).toEqual([
      expect.objectContaining({ callId, behavior: 'allow', by: 'user' }),
    ]);
  });

  test('an answer sent just as the call is approved elsewhere is refused either way (withdrawn first, or refused by the run)', async () => {
    const asked: ElicitRequest[] = [];
    const logs: string[] = [];
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const client = await kit.overStdio(async (request) => {
      asked.push(request);
      await answered;
      return { action: 'accept', content: { decision: 'deny' } };
    });
    interceptIncoming(kit.transportOf(client), (message) => !('method' in message && message.method === 'notifications/cancelled'));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    const call = client.callTool({ name: 'mcp-refunds', arguments: { prompt: 'Refund ORD-1' } });
    const { runId, callId } = idsOf(await waitFor(async () => asked[0], 'the form'));
    await kit.env.client.get(runId).approve(callId);
    answer();

    const refused = `Your answer (deny) to refund (run ${runId}, call ${callId}) was not taken: the call was already approved elsewhere (the CLI, the library, the Web UI or another MCP client): approved.`;
    await waitFor(async () => (logs.includes(refused) ? true : undefined), 'the refusal');
    expect(textOf(await call)).toBe('Refunds: refunded 30 on ORD-1');
  });
});
