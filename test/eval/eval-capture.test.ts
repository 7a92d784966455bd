import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import type { EvalReport } from '../../src/eval/eval-report';
import type { EvalSuite } from '../../src/eval/suite-schema';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { startTestWorker } from '../helpers/agent-test-env';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, testConnection, testNamespace, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { waitForPending } from '../helpers/wait-for';
import { keySet } from '../codec/helpers/test-keys';
import { agents, effects } from './fixtures/support-agents';
import { supportScript } from './fixtures/support-script';

const AGENTS = join(__dirname, 'fixtures', 'support-agents.ts');

describe('durable-agent eval capture: a finished run becomes a case that replays its tools', () => {
  let model: ScriptedModelServer;
  let dir: string;
  const connection = () => ['--address', testAddress(), '--namespace', testNamespace()];
  const evalArgs = (...args: string[]) => ['eval', ...args, ...connection(), '--model-url', model.baseURL, '--workflow-bundle', workflowBundle().codePath];

  beforeAll(async () => {
    model = await startScriptedModelServer({ script: supportScript() });
    dir = mkdtempSync(join(tmpdir(), 'eval-capture-'));
  });
  afterAll(async () => {
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => effects.reset());

  /**
   * A run on a worker of its own: "check and refund", whose refund a person approves with a smaller
   * amount. The worker stays for `capture`, whose queries it answers.
   */
  async function approvedRun(options: { dataConverter?: ReturnType<typeof encryptedDataConverter> } = {}): Promise<{ workflowId: string; stop(): Promise<void> }> {
    const taskQueue = uniqueTaskQueue('eval-capture');
    const worker = await startTestWorker(agents, taskQueue, model.baseURL, undefined, {}, options.dataConverter ? { dataConverter: options.dataConverter } : {});
    try {
      const client = await AgentClient.connect({ connection: await testConnection(), taskQueue, ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}) });
      const run = await client.start('support', { prompt: 'Check and refund order H-8' });
      const { pending } = await waitForPending(run);
      await run.approve(pending[0]!.callId, { input: { order: 'H-8', amount: 40 }, answeredBy: 'ada' });
      expect(await run.result()).toMatchObject({ status: 'completed', output: 'Result: refunded 40 for real' });
      return { workflowId: run.workflowId, stop: () => worker.stop() };
    } catch (error) {
      await worker.stop();
      throw error;
    }
  }

  test('capture records the prompt, the edited approval, the calls in order and their full results; the replay runs no tool at all', async () => {
    const { workflowId, stop } = await approvedRun();
    expect(effects).toMatchObject({ lookups: 1, refunds: [{ order: 'H-8', amount: 40 }] });
    const file = join(dir, 'captured.json');
    try {
      const captured = await runCliCaptured(['eval', 'capture', workflowId, ...connection(), '--out', file, '--module', AGENTS]);
      expect(captured).toMatchObject({ code: 0, err: [] });
      expect(captured.out[0]).toBe(`Captured ${workflowId} (agent support): 2 tool call(s), 1 answer(s) → ${file}`);
    } finally {
      await stop();
    }
    const suite = JSON.parse(readFileSync(file, 'utf8')) as EvalSuite;
    expect(resolve(dir, suite.agents!)).toBe(AGENTS);
    expect(suite.cases).toEqual([
      {
        name: `captured ${workflowId}`,
        agent: 'support',
        turns: ['Check and refund order H-8'],
        answers: [{ tool: 'refund', when: { order: 'H-8', amount: 100 }, action: 'edit', input: { order: 'H-8', amount: 40 } }],
        recording: [
          { tool: 'lookup_order', input: { id: 'H-8', verbose: false }, result: { content: '{"id":"H-8","status":"shipped"}' } },
          { tool: 'refund', input: { order: 'H-8', amount: 40 }, result: { content: 'refunded 40 for real' } },
        ],
        expect: { order: ['lookup_order', 'refund'], status: 'completed' },
      },
    ]);

    effects.reset();
    const replay = await runCliCaptured(evalArgs(file, '--json'));
    expect(replay.code).toBe(0);
    const report = JSON.parse(replay.out.join('\n')) as EvalReport;
    expect(report.runs[0]).toMatchObject({ passed: true, output: 'Result: refunded 40 for real', newBehaviour: [], notRun: [] });
    // Zero real executions: the read-only lookup answered from the recording too.
    expect(effects).toMatchObject({ lookups: 0, refunds: [], emails: 0 });

    // The model now emails the customer after the refund: a call the recording does not hold is not run and is new behaviour.
    model.setScript((request, info) => (info.turnIndex === 2 && /H-8/.test(info.lastUserText) ? { toolCalls: [{ name: 'send_email', arguments: { to: 'H-8', text: 'Refunded' } }] } : supportScript()(request, info)));
    try {
      const changed = await runCliCaptured(evalArgs(file));
      expect(changed.code).toBe(0);
      const text = changed.out.join('\n');
      expect(text).toMatch(/new behaviour: send_email$/m);
      expect(text).toContain('new behaviour: send_email({"text":"Refunded","to":"H-8"}): not in the recording');
      expect(effects.emails).toBe(0);
    } finally {
      model.setScript(supportScript());
    }
  });

  test('an encrypted run gives an encrypted capture, read back with the keys; without them the eval says how to give them', async () => {
    const keys = keySet('k-eval');
    const keyFile = join(dir, 'keys.json');
    writeFileSync(keyFile, JSON.stringify(keys), { mode: 0o600 });
    const dataConverter = encryptedDataConverter(keys);
    const { workflowId, stop } = await approvedRun({ dataConverter });
    const file = join(dir, 'captured-encrypted.json');
    try {
      const captured = await runCliCaptured(['eval', 'capture', workflowId, ...connection(), '--out', file, '--encryption-key-file', keyFile]);
      expect(captured.code).toBe(0);
      expect(captured.out[0]).toContain("encrypted with the run's key");
    } finally {
      await stop();
    }
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'durable-agent-eval/encrypted', keyId: 'k-eval' });
    expect(text).not.toContain('H-8');
    expect(text).not.toContain('refunded');

    const keyless = await runCliCaptured(evalArgs(file, '--module', AGENTS));
    expect(keyless.code).toBe(1);
    expect(keyless.err.join('\n')).toContain(`${file} is encrypted (key 'k-eval'): give the keys it was written with, as --encryption-key-file PATH, AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS`);

    effects.reset();
    const replay = await runCliCaptured(evalArgs(file, '--module', AGENTS, '--encryption-key-file', keyFile, '--json'));
    expect(replay.code).toBe(0);
    expect((JSON.parse(replay.out.join('\n')) as EvalReport).runs[0]).toMatchObject({ passed: true, output: 'Result: refunded 40 for real' });
    expect(effects).toMatchObject({ lookups: 0, refunds: [] });
  });
});

