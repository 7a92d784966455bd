import { evalLocalModel, PINNED_EVAL_MODEL } from '../../evals/local-model-eval';
import { REAL_MODEL_ENV } from './real-model-env';

/**
 * The share of the support eval's runs on the pinned model that must pass. The benchmark's target
 * is 80 %; the pinned model passed 82.5 % of 80 runs, but a run of 20 moves between 65 and 100 %
 * on its sampling alone (docs/benchmark.md), so a gate at the target would fail on the model's own
 * variance. The tier gates at 50 %: a model that passes 80 % falls below it about once in a
 * thousand runs, and the same model without calls held to the schemas passes 20 %, so a
 * regression of the runtime's part still fails it.
 */
const GATE = Number(process.env.REAL_MODEL_EVAL_GATE ?? 0.5);
const REPEAT = Number(process.env.REAL_MODEL_EVAL_REPEAT ?? 5);

const skip = process.env[REAL_MODEL_ENV.skip];
if (skip) console.log(`the support eval on the pinned model: skipped (${skip})`);

(skip ? describe.skip : describe)(`the support eval on the pinned model (${PINNED_EVAL_MODEL}), calls held to the tools' schemas`, () => {
  test(`the README's agent answers right in at least ${Math.round(GATE * 100)} % of ${REPEAT} runs of each of its four questions`, async () => {
    const { model, report } = await evalLocalModel({ size: PINNED_EVAL_MODEL, constrained: true, repeat: REPEAT, address: process.env.TEMPORAL_TEST_ADDRESS!, log: (line) => process.stderr.write(`${line}\n`) });
    const rates = report.cases.map((summary) => `${summary.case} ${summary.passed}/${summary.runs}`).join(', ');
    const rate = report.summary.passedRuns / report.summary.runs;
    console.log(`support eval on ${model}: ${Math.round(rate * 100)} % of ${report.summary.runs} runs passed (${rates}); the scripted model: 100 % (test/eval/support-suite.test.ts)`);
    const failures = report.runs.filter((run) => !run.passed).map((run) => `${run.case} #${run.repeat}: ${run.expectations.filter((e) => !e.passed).map((e) => `${e.expected}; ${e.actual}`).join(' | ')}`);
    expect({ rate: rate >= GATE ? 'at or above the gate' : rate, failures: rate >= GATE ? [] : failures }).toEqual({ rate: 'at or above the gate', failures: [] });
  });
});
