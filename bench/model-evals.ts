import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadAgentsModule } from '../src/worker/load-agents-module';
import { loadSuite } from '../src/eval/load-suite';
import { runEval } from '../src/eval/run-eval';
import type { EvalReport } from '../src/eval/eval-report';
import { loadAverage } from './load-average';
import type { SummaryRow } from './summary';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const localModel = require('../scripts/local-model.cjs') as typeof import('../scripts/local-model.cjs');

/** The README's support agent on four questions (test/real-model/support.eval.ts): what `npm run test:model` gates on. */
export const SUPPORT_SUITE = join(__dirname, '..', 'test', 'real-model', 'support.eval.ts');

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
      ...(options.log ? { progress: (run) => options.log!(`${run.passed ? '✓' : '✗'} ${run.case} #${run.repeat} ${run.status} ${(run.durationMs / 1000).toFixed(1)} s`) } : {}),
    });
    return { model: served.model, constrained: options.constrained, report };
  } finally {
    await served.stop();
  }
}

function rate(report: EvalReport): string {
  const { runs, passedRuns } = report.summary;
  return `${Math.round((100 * passedRuns) / runs)} % (${passedRuns}/${runs})`;
}

/**
 * `evals`: the support suite, `--repeat` BENCH_EVAL_REPEAT (5), on each local model of
 * BENCH_EVAL_MODELS (0.5b,1.5b,gemma-270m), with calls held to the tools' schemas and without
 * (read from the reply's text, as before 0.7.0): the pass rate of each, and of each case.
 */
export async function measureModelEvals(sizes: string[], repeat: number, address: string): Promise<SummaryRow[]> {
  const rows: SummaryRow[] = [];
  for (const size of sizes) {
    for (const constrained of [true, false]) {
      let figures: ModelEvalFigures;
      try {
        figures = await evalLocalModel({ size, constrained, repeat, address, log: (line) => console.log(`  ${line}`) });
      } catch (error) {
        console.log(`\neval on ${size}: skipped (${(error as Error).message.split('\n')[0]})`);
        continue;
      }
      const how = constrained ? 'calls held to the schemas' : 'calls read from text';
      const cases = figures.report.cases.map((summary) => `${summary.case} ${summary.passed}/${summary.runs}`).join(', ');
      console.log(`\nsupport eval on ${figures.model}, ${how}: ${rate(figures.report)} of runs passed (${cases}); ${loadAverage()}`);
      rows.push({ part: 'evals', figure: `${figures.model}, ${how}: support eval runs passed`, value: rate(figures.report), target: constrained ? '≥ 80 % on the pinned model' : 'measured', load: loadavg()[0] });
    }
  }
  return rows;
}
