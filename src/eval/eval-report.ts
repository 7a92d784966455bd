import { z } from 'zod';
import type { TokenUsage } from '../common/messages';
import type { SkippedCall } from './case-tools';

export const REPORT_FORMAT = 'durable-agent-eval-report';

/** One expectation of a case, scored on one run: what was expected and what happened. */
export interface ExpectationResult {
  expectation: string;
  passed: boolean;
  expected: string;
  actual: string;
}

export interface JudgeVerdict {
  verdict: 'pass' | 'fail';
  reason: string;
}

/** One run of a case (a case × model × repeat). */
export interface EvalRunReport {
  case: string;
  /** The model it ran on (`--models`); absent: the agent's own. */
  model?: string;
  /** 1 for the first repeat. */
  repeat: number;
  workflowId: string;
  passed: boolean;
  /** How the run ended (`completed`, `failed`, …), or `error` when the eval could not run it. */
  status: string;
  /** Why the case could not be scored as usual: a waiting call with no answer, a run that did not start, … */
  error?: string;
  output?: string;
  expectations: ExpectationResult[];
  /** Calls of tools with effects the case gives no result for: not run, answered with an error result. */
  notRun: SkippedCall[];
  /** Replays of a capture: calls the recording does not hold (not run). */
  newBehaviour: SkippedCall[];
  judge?: JudgeVerdict;
  usage: TokenUsage;
  cost?: number;
  iterations: number;
  durationMs: number;
}

/** A case on one model across its repeats, with its change from the baseline. */
export interface EvalCaseSummary {
  case: string;
  model?: string;
  runs: number;
  passed: number;
  passRate: number;
  baseline?: { passRate: number; change: number; regression?: string };
}

export interface EvalReport {
  format: typeof REPORT_FORMAT;
  version: 1;
  suite: string;
  startedAt: string;
  durationMs: number;
  models?: string[];
  repeat: number;
  summary: { cases: number; passedCases: number; runs: number; passedRuns: number };
  cases: EvalCaseSummary[];
  runs: EvalRunReport[];
  baseline?: { path: string; threshold: number; regressions: string[] };
}

/** What a baseline must hold: a previous `--json` report's cases and their pass rates. */
export const baselineSchema = z
  .object({
    format: z.literal(REPORT_FORMAT, { errorMap: () => ({ message: `is not '${REPORT_FORMAT}': a baseline is the output of \`durable-agent eval --json\`` }) }),
    version: z.literal(1),
    cases: z.array(
      z
        .object({
          case: z.string(),
          model: z.string().optional(),
          runs: z.number().int().nonnegative(),
          passed: z.number().int().nonnegative(),
          passRate: z.number().min(0).max(1),
        })
        .passthrough(),
    ),
  })
  .passthrough();

export type Baseline = z.infer<typeof baselineSchema>;

export function caseKey(name: string, model: string | undefined): string {
  return model === undefined ? name : `${name} @ ${model}`;
}

/** The runs of each case × model, in the order the cases were given. */
export function summarize(runs: readonly EvalRunReport[]): EvalCaseSummary[] {
  const byKey = new Map<string, EvalCaseSummary>();
  for (const run of runs) {
    const key = caseKey(run.case, run.model);
    const summary = byKey.get(key) ?? { case: run.case, ...(run.model !== undefined ? { model: run.model } : {}), runs: 0, passed: 0, passRate: 0 };
    summary.runs += 1;
    if (run.passed) summary.passed += 1;
    summary.passRate = Math.round((summary.passed / summary.runs) * 100) / 100;
    byKey.set(key, summary);
  }
  return [...byKey.values()];
}
