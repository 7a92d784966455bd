import { join } from 'node:path';
import { loadAgentsModule } from '../src/worker/load-agents-module';
import { loadSuite } from '../src/eval/load-suite';
import { runEval } from '../src/eval/run-eval';
import { progressLine } from '../src/eval/report-table';
import type { EvalReport } from '../src/eval/eval-report';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const localModel = require('../scripts/local-model.cjs') as typeof import('../scripts/local-model.cjs');

/** The local model chosen by the support eval (docs/benchmark.md, the evals part): what the real-model tier's eval runs on. */
export const PINNED_EVAL_MODEL = '1.5b';

/** The README's support agent on four questions (test/real-model/support.eval.ts): what `npm run test:model` gates on. */
export const SUPPORT_SUITE = join(__dirname, 'support', 'support.eval.ts');

export interface ModelEvalFigures {
  model: string;
  constrained: boolean;
  report: EvalReport;
}

/** The support suite on one local model, its calls held to the tools' schemas or read from its text. */
export async function evalLocalModel(options: { size: string; constrained: boolean; repeat: number; address?: string; log?: (line: string) => void }): Promise<ModelEvalFigures> {
  const served = await localModel.startLocalModel({ model: options.size });
  try {
    const suite = await loadSuite(SUPPORT_SUITE, () => undefined);
    const { agents } = await loadAgentsModule(suite.agentsModule!);
    const report = await runEval({
      suite,
      agents,
      ...(options.address ? { connection: { address: options.address } } : {}),
      worker: { openaiBaseUrl: served.baseURL, openaiApiKey: 'local', defaultModel: served.model, textToolCallModels: ['*'], constrainedCallModels: options.constrained ? ['*'] : [] },
      repeat: options.repeat,
      concurrency: 2,
      timeoutMs: 10 * 60_000,
      log: () => undefined,
      // A failed run's line says why (its first failed expectation, or what stopped it), as `durable-agent eval` prints it.
      ...(options.log ? { progress: (run) => options.log!(progressLine(run)) } : {}),
    });
    return { model: served.model, constrained: options.constrained, report };
  } finally {
    await served.stop();
  }
}

