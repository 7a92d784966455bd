// A worker of the chaos scenario's ledger agents in a process of its own (started by
// test/cluster/helpers/namespaced-worker.ts inside a network namespace). Every tool execution is
// one JSON line on stdout, so the test sees when this worker runs a step.
import './quiet-runtime';
import { NativeConnection } from '@temporalio/worker';
import { EffectLedger } from '../../../chaos/effect-ledger';
import { createChatModel } from '../../../src/model/create-chat-model';
import { createWorker } from '../../../src/worker/create-worker';
import { ledgerAgents } from './ledger-agents';

const TEST_MODEL = 'scripted-model';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The scenario's ledger, with a line on stdout for each execution of a step. */
class ReportingLedger extends EffectLedger {
  override apply(key: string, step: number): boolean {
    const applied = super.apply(key, step);
    process.stdout.write(`${JSON.stringify({ event: 'apply', key, step, applied, at: Date.now() })}\n`);
    return applied;
  }
}

async function main(): Promise<void> {
  const ledger = new ReportingLedger(env('LEDGER_DIR'));
  const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
  const worker = await createWorker({
    agents: ledgerAgents(ledger),
    connection,
    config: { taskQueue: env('TASK_QUEUE'), defaultModel: TEST_MODEL, namespace: process.env.TEMPORAL_NAMESPACE || 'default' },
    model: createChatModel({ baseURL: env('MODEL_BASE_URL'), apiKey: 'test-key', defaultModel: TEST_MODEL }),
    workflowBundle: { codePath: env('WORKFLOW_BUNDLE') },
    log: () => undefined,
  });
  const stop = () => worker.shutdown();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${JSON.stringify({ event: 'ready', identity: worker.worker.options.identity, at: Date.now() })}\n`);
  await worker.run();
  await connection.close();
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
