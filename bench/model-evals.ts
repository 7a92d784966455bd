import { loadavg } from 'node:os';
import { evalLocalModel, type ModelEvalFigures } from '../evals/local-model-eval';
import type { EvalReport } from '../src/eval/eval-report';
import { loadAverage } from './load-average';
import type { SummaryRow } from './summary';

function rate(report: EvalReport): string {
  const { runs, passedRuns } = report.summary;
  return `${Math.round((100 * passedRuns) / runs)} % (${passedRuns}/${runs})`;
}

/**
 * `evals`: the support suite, `--repeat` BENCH_EVAL_REPEAT (5), on each local model of
 * BENCH_EVAL_MODELS (0.5b,1.5b,gemma-270m), with calls held to the tools' schemas and without
 * (read from the reply's text, as before 0.7.0; BENCH_EVAL_MODES picks: held,text): the pass rate of each, and of each case.
 */
export async function measureModelEvals(sizes: string[], repeat: number, address: string, modes: readonly ('held' | 'text')[] = ['held', 'text']): Promise<SummaryRow[]> {
  const rows: SummaryRow[] = [];
  for (const size of sizes) {
    for (const constrained of modes.map((mode) => mode === 'held')) {
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

/** BENCH_EVAL_MODES, e.g. `text`: the ways of reading calls the evals part measures. */
export function evalModes(value: string | undefined): ('held' | 'text')[] {
  const modes = (value ?? 'held,text').split(',').map((mode) => mode.trim());
  const unknown = modes.filter((mode) => mode !== 'held' && mode !== 'text');
  if (unknown.length > 0) throw new Error(`BENCH_EVAL_MODES: unknown ${unknown.join(', ')}; held, text`);
  return modes as ('held' | 'text')[];
}
