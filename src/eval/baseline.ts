import { readFileSync } from 'node:fs';
import { baselineSchema, caseKey, type Baseline, type EvalCaseSummary } from './eval-report';
import { describeInvalid, issueLines } from './schema-issues';

export const DEFAULT_THRESHOLD = 0.1;

/** A previous `--json` report, checked before it is compared with. */
export function readBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`baseline ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`baseline ${path} is not JSON (${(error as Error).message}); a baseline is the output of \`durable-agent eval --json\``);
  }
  const parsed = baselineSchema.safeParse(value);
  if (!parsed.success) throw new Error(describeInvalid(`baseline ${path} is not an eval report`, issueLines(parsed.error)));
  return parsed.data;
}

const rate = (value: number) => value.toFixed(2);

/**
 * Each case's change from the baseline (set on the summaries), and the regressions: a pass rate
 * that dropped by more than `threshold`, or a case that passed every run and now passes none.
 * Cases the baseline does not have are new: no change, no regression.
 */
export function compareWithBaseline(cases: EvalCaseSummary[], baseline: Baseline, threshold: number): string[] {
  const before = new Map(baseline.cases.map((entry) => [caseKey(entry.case, entry.model), entry]));
  const regressions: string[] = [];
  for (const summary of cases) {
    const key = caseKey(summary.case, summary.model);
    const old = before.get(key);
    if (!old) continue;
    const change = Math.round((summary.passRate - old.passRate) * 100) / 100;
    let regression: string | undefined;
    if (old.passRate - summary.passRate > threshold + 1e-9) regression = `pass rate ${rate(old.passRate)} → ${rate(summary.passRate)}, down more than ${threshold}`;
    else if (old.passRate === 1 && summary.passRate === 0) regression = 'passed in the baseline, fails now';
    summary.baseline = { passRate: old.passRate, change, ...(regression ? { regression } : {}) };
    if (regression) regressions.push(`${key}: ${regression}`);
  }
  return regressions;
}
