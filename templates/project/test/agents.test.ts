// The agents against the package's scripted model, on a Temporal dev server of the test's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentClient, createWorker } from 'durable-agent';
import { startScriptedModelServer, startTestTemporal } from 'durable-agent/testing';
import { agents } from '../agents';
import { modelScript } from '../model-script';

test('support looks the order up, asks before it refunds, and answers', { timeout: 180_000 }, async () => {
  const temporal = await startTestTemporal();
  // The script `npm run dev` answers with: it looks the order up, then asks for the refund.
  const model = await startScriptedModelServer({ script: modelScript });
  const worker = await createWorker({
    agents,
    config: { temporalAddress: temporal.address, taskQueue: 'support-test', openaiBaseUrl: model.baseURL, defaultModel: 'scripted-model' },
    log: () => undefined,
  });
  const running = worker.run();
  const client = await AgentClient.connect({ address: temporal.address, taskQueue: 'support-test' });
  try {
    const run = await client.start('support', { prompt: 'Where is A-1001? Refund 20, it is late.' });
    let callId: string | undefined;
    for await (const update of run.updates({ partialText: false })) {
      if (update.type === 'permission_requested') {
        assert.equal(update.tool, 'refund');
        callId = update.callId;
        break;
      }
    }
    assert.ok(callId, 'the refund asks for approval');
    await run.approve(callId);
    const result = await run.result();
    assert.equal(result.output, 'Order A-1001 is shipped, arriving tomorrow. The refund of 20 is requested.');
    assert.match(JSON.stringify(result.messages), /Refund of 20 on A-1001 requested/);
  } finally {
    await client.close();
    worker.shutdown();
    await running;
    await model.close();
    await temporal.stop();
  }
});
