import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentRunResult, ApprovalDecision } from '../../src/common/run';
import type { WaitingCall } from '../../src/common/contracts/published-waits';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import type { ScriptedModelServer } from '../../src/testing/scripted-model-types';
import { runCliCaptured } from '../helpers/cli-capture';
import { testAddress, uniqueTaskQueue } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait-for';
import { encryptedDataConverter } from '../../src/codec/encrypted-data-converter';
import { startCodecWorker, type RunningWorker } from './helpers/codec-worker';
import { keySet, keysVar, newKey, withEnv } from './helpers/test-keys';
import { LOOKUP_RESULT, REFUND_RESULT, runSecrets, vaultAgent, vaultScript } from './helpers/vault-agent';

const NO_KEYS = { AGENT_ENCRYPTION_KEY_FILE: undefined, AGENT_ENCRYPTION_KEYS: undefined };

describe('the CLI with encrypted payloads', () => {
  const keys = keySet('k-cli');
  let dir: string;
  let keyFile: string;
  let model: ScriptedModelServer;
  let worker: RunningWorker;
  let common: string[];

  /** `durable-agent <args>` with exactly these encryption variables set. */
  const cli = (args: string[], env: Record<string, string | undefined> = {}) => withEnv({ ...NO_KEYS, ...env }, () => runCliCaptured([...args, ...common]));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'durable-agent-cli-keys-'));
    keyFile = join(dir, 'keys.json');
    writeFileSync(keyFile, JSON.stringify(keys), { mode: 0o600 });
    model = await startScriptedModelServer({ script: vaultScript });
    const taskQueue = uniqueTaskQueue('codec-cli');
    worker = await startCodecWorker({ agents: [vaultAgent], taskQueue, modelBaseURL: model.baseURL, dataConverter: encryptedDataConverter(keys) });
    common = ['--address', testAddress(), '--task-queue', taskQueue];
  });

  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('start, pending, approve and result work with the key from --encryption-key-file or the environment; without it they fail naming the key', async () => {
    const secrets = runSecrets('c1i9');
    const started = await cli(['start', '--agent', 'vault-agent', '--prompt', secrets.prompt, '--json', '--encryption-key-file', keyFile]);
    expect(started).toMatchObject({ code: 0, err: [] });
    const { workflowId } = JSON.parse(started.out[0]!) as { workflowId: string };

    // The key inline, in AGENT_ENCRYPTION_KEYS.
    const [call] = await waitFor(async () => {
      const listed = await cli(['pending', workflowId, '--json'], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
      expect(listed.code).toBe(0);
      const { calls } = JSON.parse(listed.out[0]!) as { calls: WaitingCall[] };
      return calls.length > 0 ? calls : undefined;
    }, 'the refund to wait');
    expect(call).toMatchObject({ tool: 'refund', input: { order_id: secrets.refundArgument } });

    // No key: the state query's answer cannot be read, and the commands say which key is missing.
    const missing = /Cannot read a payload encrypted with key 'k-cli': no encryption keys are configured\. Set AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS \(CLI: --encryption-key-file PATH\)\./;
    const pendingWithout = await cli(['pending', workflowId]);
    expect(pendingWithout.code).toBe(1);
    expect(pendingWithout.err.join('\n')).toMatch(missing);
    expect(pendingWithout.out).toEqual([]);
    // `result` of a waiting run fails at once instead of waiting for the end of a run it cannot read.
    const waitingWithout = await cli(['result', workflowId]);
    expect(waitingWithout.code).toBe(1);
    expect(waitingWithout.err.join('\n')).toMatch(missing);

    // The file, through AGENT_ENCRYPTION_KEY_FILE.
    const approved = await cli(['approve', workflowId, call!.callId, '--json'], { AGENT_ENCRYPTION_KEY_FILE: keyFile });
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.out[0]!) as ApprovalDecision).toMatchObject({ callId: call!.callId, approved: true });

    const result = await cli(['result', workflowId, '--wait', '--json', '--encryption-key-file', keyFile]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.out[0]!) as AgentRunResult).output).toBe(
      `${secrets.answer}: ${LOOKUP_RESULT} for ${secrets.lookupArgument} | ${REFUND_RESULT} on ${secrets.refundArgument}`,
    );
    const text = await cli(['result', workflowId], { AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(text.code).toBe(0);
    expect(text.out[0]).toContain(secrets.answer);

    // Without the key: an error naming it, never ciphertext.
    const without = await cli(['result', workflowId]);
    expect(without.code).toBe(1);
    expect(without.out).toEqual([]);
    expect(without.err.join('\n')).toMatch(missing);
    const json = await cli(['result', workflowId, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out[0]!)).toEqual({ workflowId, status: 'failed', error: expect.stringMatching(missing) });

    // Another key under the same id: authentication fails, and says so.
    const wrong = await cli(['result', workflowId], { AGENT_ENCRYPTION_KEYS: `k-cli:${newKey()}` });
    expect(wrong.code).toBe(1);
    expect(wrong.err.join('\n')).toContain("Cannot decrypt a payload encrypted with key 'k-cli': authentication failed");
    // Only other keys: the id it needs.
    const other = await cli(['result', workflowId], { AGENT_ENCRYPTION_KEYS: `k-other:${newKey()}` });
    expect(other.err.join('\n')).toContain("Cannot decrypt a payload encrypted with key 'k-cli': that key is not configured (known: k-other)");
  });

  test('keys that cannot be used stop the command before it connects, saying why and never printing key material', async () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    writeFileSync(join(dir, 'short.json'), JSON.stringify({ current: 'k1', keys: { k1: short } }));
    const shortKey = await cli(['result', 'any-run', '--encryption-key-file', join(dir, 'short.json')]);
    expect(shortKey).toMatchObject({ code: 1, out: [] });
    expect(shortKey.err.join('\n')).toBe(
      `Error: encryption key file ${join(dir, 'short.json')}: keys.k1: 16 bytes; AES-256 needs 32 (make one with \`openssl rand -base64 32\`)`,
    );
    expect(shortKey.err.join('\n')).not.toContain(short);

    const missingFile = await cli(['pending', 'any-run'], { AGENT_ENCRYPTION_KEY_FILE: keyFile.replace('keys.json', 'missing.json') });
    expect(missingFile.err.join('\n')).toMatch(/^Error: encryption key file .*missing\.json cannot be read \(ENOENT\)$/);

    const both = await cli(['pending', 'any-run'], { AGENT_ENCRYPTION_KEY_FILE: keyFile, AGENT_ENCRYPTION_KEYS: keysVar(keys) });
    expect(both.err.join('\n')).toBe('Error: set AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS, not both');
  });

  test('--help of every command shows --encryption-key-file with its environment variable', async () => {
    const help = await runCliCaptured(['result', '--help']);
    expect(help.out.join('\n')).toMatch(/--encryption-key-file PATH\n? +JSON file of the payload encryption keys .*\(env AGENT_ENCRYPTION_KEY_FILE\)/);
    const overview = await runCliCaptured(['--help']);
    expect(overview.out.join('\n')).toMatch(/^ {2}codec-server +Serve the payload encryption keys as a codec server/m);
  });
});
