import { Connection } from '@temporalio/client';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { AgentClient } from '../../src/client/agent-client';
import { defineAgent } from '../../src/toolkit/define-agent';
import { refundTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { testAddress, testNamespace } from '../helpers/temporal-env';
import { waitFor, waitForPending } from '../helpers/wait-for';

const shop = defineAgent({ name: 'stream-abort-shop', instructions: 'Refund.', model: { name: 'shop' }, tools: [refundTool], permissions: { ask: ['refund'] } });

/** Counts the calls of one gRPC method that are open on a connection. */
function openCallsOf(method: string): { interceptor: Interceptor; open(): number } {
  let open = 0;
  const interceptor: Interceptor = (options, nextCall) => {
    if (!options.method_definition.path.endsWith(`/${method}`)) return new InterceptingCall(nextCall(options));
    open++;
    return new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            open--;
            nextStatus(status);
          },
        });
      },
    });
  };
  return { interceptor, open: () => open };
}

describe('a stream left before its run ends', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [shop],
      byModel: { shop: (_request, info) => (info.turnIndex === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'A-1', amount: 30 } }] } : 'Refunded.') },
    });
  });
  afterAll(() => env?.stop());

  test('leaves no long poll for the run\'s result open on the connection', async () => {
    const results = openCallsOf('GetWorkflowExecutionHistory');
    const connection = await Connection.connect({ address: testAddress(), interceptors: [results.interceptor] });
    try {
      const client = await AgentClient.connect({ connection, namespace: testNamespace(), taskQueue: env.taskQueue });
      const run = await client.start(shop, { prompt: 'Refund A-1' });
      for await (const item of run.stream()) if (item.type === 'event' && item.waiting) break;
      await waitFor(async () => (results.open() === 0 ? true : undefined), "the stream's result poll to end", 5_000);
      const waiting = env.client.get(run.workflowId);
      await waiting.approve((await waitForPending(waiting)).pending[0]!.callId);
      expect((await waiting.result()).output).toBe('Refunded.');
    } finally {
      await connection.close();
    }
  });
});
