import pLimit from 'p-limit';
import type { AgentClient } from '../client/agent-client';
import { CaseTools, type CaseToolsRegistry } from './case-tools';
import type { EvalCaseInput } from './define-suite';
import type { EvalRunReport, ExpectationResult } from './eval-report';
import { judge, type JudgeSettings } from './judge';
import { callsOf, describeCall } from './run-calls';
import { runCase } from './run-case';
import { scoreRun } from './score-case';

export interface SuiteRunOptions {
  cases: readonly EvalCaseInput[];
  client: AgentClient;
  registry: CaseToolsRegistry;
  /** Every case runs on each of these models (the start option `model`); the agents' own when absent. */
  models?: readonly string[];
  repeat: number;
  concurrency: number;
  timeoutMs: number;
  pollMs?: number;
  judge?: JudgeSettings;
  /** One line per finished run, as it finishes. */
  progress?(run: EvalRunReport): void;
  /** Stops the eval: no run starts after it, and the runs in flight are cancelled. */
  signal?: AbortSignal;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'case';
}

async function judgement(settings: JudgeSettings | undefined, evalCase: EvalCaseInput, report: Pick<EvalRunReport, 'output'>, calls: string[]): Promise<{ result: ExpectationResult; verdict?: EvalRunReport['judge'] }> {
  const rubric = evalCase.expect!.judge!.rubric;
  if (!settings) return { result: { expectation: 'judge', passed: false, expected: rubric, actual: 'no judge: give --judge-model NAME' } };
  const verdict = await judge(settings, { rubric, turns: evalCase.turns, calls, answer: report.output ?? '' });
  return { result: { expectation: 'judge', passed: verdict.verdict === 'pass', expected: rubric, actual: `${verdict.verdict}: ${verdict.reason}` }, verdict };
}

async function runOne(options: SuiteRunOptions, evalCase: EvalCaseInput, workflowId: string, model: string | undefined, repeat: number): Promise<EvalRunReport> {
  const started = Date.now();
  const tools = new CaseTools(evalCase.tools, evalCase.recording);
  const settings = { client: options.client, registry: options.registry, timeoutMs: options.timeoutMs, pollMs: options.pollMs ?? 250, ...(options.signal ? { signal: options.signal } : {}) };
  const outcome = await runCase(settings, evalCase, workflowId, model, tools).catch((error: unknown) => ({ workflowId, error: `the eval failed: ${(error as Error).message}`, facts: undefined }));
  const { facts } = outcome;
  const expectations = facts ? scoreRun(evalCase.expect ?? {}, facts) : [];
  const report: EvalRunReport = {
    case: evalCase.name,
    ...(model !== undefined ? { model } : {}),
    repeat,
    workflowId: outcome.workflowId,
    passed: false,
    status: facts?.status ?? 'error',
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(facts ? { output: facts.output } : {}),
    expectations,
    notRun: tools.notRun,
    newBehaviour: tools.newBehaviour,
    usage: facts?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    ...(facts?.cost !== undefined ? { cost: facts.cost } : {}),
    iterations: facts?.iterations ?? 0,
    durationMs: 0,
  };
  if (evalCase.expect?.judge && facts && !outcome.error) {
    const { result, verdict } = await judgement(options.judge, evalCase, report, callsOf(facts.events).map(describeCall));
    expectations.push(result);
    if (verdict) report.judge = verdict;
  }
  report.passed = !outcome.error && expectations.every((expectation) => expectation.passed);
  report.durationMs = Date.now() - started;
  return report;
}

/**
 * Every case × model × repeat as a durable run, `concurrency` at a time, scored as each ends.
 * The reports come back in the order of the cases, then models, then repeats.
 */
export async function runSuite(options: SuiteRunOptions): Promise<EvalRunReport[]> {
  const limit = pLimit(Math.max(1, options.concurrency));
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const models: (string | undefined)[] = options.models && options.models.length > 0 ? [...options.models] : [undefined];
  const jobs: Promise<EvalRunReport>[] = [];
  options.cases.forEach((evalCase, index) => {
    models.forEach((model, modelIndex) => {
      for (let repeat = 1; repeat <= options.repeat; repeat++) {
        const workflowId = `eval-${tag}-${index + 1}-${slug(evalCase.name)}${model !== undefined ? `-m${modelIndex + 1}` : ''}-r${repeat}`;
        jobs.push(
          limit(async () => {
            const report = await runOne(options, evalCase, workflowId, model, repeat);
            options.progress?.(report);
            return report;
          }),
        );
      }
    });
  });
  const all = Promise.all(jobs);
  const { signal } = options;
  if (!signal) return all;
  return new Promise((resolve, reject) => {
    const stop = () => {
      limit.clearQueue();
      const running = options.registry.running();
      void Promise.all(running.map((id) => options.client.get(id).cancel().catch(() => undefined))).then(() =>
        reject(new Error(`the eval was stopped; ${running.length} run(s) in flight were cancelled`)),
      );
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    all.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
