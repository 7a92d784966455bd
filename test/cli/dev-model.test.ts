import { join } from 'node:path';
import { UsageError } from '../../src/cli/command';
import { devModel } from '../../src/cli/dev/dev-model';
import { findLocalModel } from '../../src/cli/dev/local-model-endpoint';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { closedPort } from '../helpers/unreachable-endpoints';

const MODEL_SCRIPT = join(__dirname, '..', '..', 'templates', 'project', 'model-script.ts');

async function ask(baseURL: string, messages: unknown[]): Promise<{ content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> }> {
  const response = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'scripted-model', messages }) });
  return ((await response.json()) as { choices: Array<{ message: { content: string | null } }> }).choices[0]!.message;
}

describe('the model of `durable-agent dev`', () => {
  let local: ScriptedModelServer;
  let dead: string;
  beforeAll(async () => {
    local = await startScriptedModelServer({ script: ['hi'], models: ['qwen2.5-coder-1.5b-instruct'] });
    dead = `http://127.0.0.1:${await closedPort()}/v1`;
  });
  afterAll(() => local.close());

  test('--local-model: the first server on this machine that lists a model, and that model (AGENT_MODEL wins); calls held to the schemas, and read from the text', async () => {
    expect(await findLocalModel({}, [dead, local.baseURL])).toEqual({ baseURL: local.baseURL, model: 'qwen2.5-coder-1.5b-instruct' });
    expect(await findLocalModel({ AGENT_MODEL: 'mine' }, [local.baseURL])).toEqual({ baseURL: local.baseURL, model: 'mine' });
    const chosen = await devModel({ localModel: true, modelScript: undefined }, { OPENAI_BASE_URL: local.baseURL });
    expect(chosen.overrides).toEqual({ openaiBaseUrl: local.baseURL, defaultModel: 'qwen2.5-coder-1.5b-instruct', textToolCallModels: ['*'], constrainedCallModels: ['*'] });
    await expect(findLocalModel({}, [dead])).rejects.toThrow(`--local-model: no model server answers at ${dead}. Start one`);
  });

  test('a key or an endpoint in the environment: that model, as the worker reads it', async () => {
    expect((await devModel({ localModel: false, modelScript: MODEL_SCRIPT }, { OPENAI_API_KEY: 'sk-x' })).overrides).toEqual({});
  });

  test('no model and no script: a usage error that says what to give', async () => {
    await expect(devModel({ localModel: false, modelScript: undefined }, {})).rejects.toThrow(UsageError);
  });

  test("otherwise the scripted model, on the scaffold's model-script.ts: it looks the order up, refunds what is asked, answers from the results", async () => {
    const chosen = await devModel({ localModel: false, modelScript: MODEL_SCRIPT }, {});
    try {
      const baseURL = chosen.overrides.openaiBaseUrl!;
      expect(chosen.overrides.defaultModel).toBe('scripted-model');
      const user = { role: 'user', content: 'Where is A-1001? Refund 20, it is late.' };
      const lookup = await ask(baseURL, [user]);
      expect(lookup.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([['lookup_order', { order_id: 'A-1001' }]]);
      const looked = [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '{"order_id":"A-1001","status":"shipped","eta":"tomorrow"}' }];
      const refund = await ask(baseURL, looked);
      expect(refund.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([['refund', { order_id: 'A-1001', amount: 20 }]]);
      const refunded = [...looked, { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'refund', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c2', content: 'Refund of 20 on A-1001 requested (key k)' }];
      expect((await ask(baseURL, refunded)).content).toBe('Order A-1001 is shipped, arriving tomorrow. The refund of 20 is requested.');
      expect((await ask(baseURL, [{ role: 'user', content: 'Where is my parcel?' }])).content).toBe('Which order is it? Give me its id, e.g. A-1001.');
    } finally {
      await chosen.stop();
    }
  });
});
