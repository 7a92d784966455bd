import type { DataConverter } from '@temporalio/common';
import type { ConnectionOverrides } from '../connection/connection-overrides';
import type { AgentDefinition } from '../toolkit/define-agent';
import { withSubAgents } from '../toolkit/agent-registry';
import type { WorkerConfig } from '../worker/config';
import { readWorkerConfig } from '../worker/config';
import { compareWithBaseline, readBaseline } from './baseline';
import { CaseToolsRegistry } from './case-tools';
import { startEvalEnvironment } from './eval-environment';
import { REPORT_FORMAT, summarize, type EvalReport, type EvalRunReport } from './eval-report';
import { runSuite } from './eval-runner';
import type { LoadedSuite } from './load-suite';

export interface RunEvalOptions {
  suite: LoadedSuite;
  /** The agents the cases run (the suite's module, `--module`, or the demo's). */
  agents: AgentDefinition[];
  /** A running Temporal; a dev server of the eval's own otherwise. */
  connection?: ConnectionOverrides;
  dataConverter?: DataConverter;
  workflowBundle?: string;
  /** Worker settings over the environment's (the model endpoint). */
  worker?: Partial<WorkerConfig>;
  models?: string[];
  repeat: number;
  concurrency: number;
  timeoutMs: number;
  judgeModel?: string;
  baseline?: { path: string; threshold: number };
  log(message: string): void;
  progress?(run: EvalRunReport): void;
  /** Stops the eval (Ctrl-C): the runs in flight are cancelled, and what it started is ended. */
  signal?: AbortSignal;
}

/** Cases whose agent the worker would not serve, said before anything starts. */
function unknownAgents(suite: LoadedSuite, agents: AgentDefinition[]): string[] {
  const served = new Set(withSubAgents(agents).map((agent) => agent.name));
  return suite.suite.cases.filter((evalCase) => !served.has(evalCase.agent)).map((evalCase) => `case '${evalCase.name}' runs agent '${evalCase.agent}', which the agents module does not define (it has ${[...served].join(', ')})`);
}

/**
 * Runs a suite: Temporal and a worker of the eval's own, every case × model × repeat as a durable
 * run, scored on what the runs recorded; compared with a baseline when one is given. Everything it
 * started is ended before it returns.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const problems = unknownAgents(options.suite, options.agents);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const baseline = options.baseline ? readBaseline(options.baseline.path) : undefined;
  const workerConfig = { ...readWorkerConfig(), ...options.worker };
  const registry = new CaseToolsRegistry();
  const startedAt = new Date();
  const environment = await startEvalEnvironment({
    agents: options.agents,
    registry,
    ...(options.connection ? { connection: options.connection } : {}),
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : {}),
    ...(options.worker ? { worker: options.worker } : {}),
    log: options.log,
  });
  let runs: EvalRunReport[];
  try {
    runs = await runSuite({
      cases: options.suite.suite.cases,
      client: environment.client,
      registry,
      ...(options.models ? { models: options.models } : {}),
      repeat: options.repeat,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      ...(options.judgeModel
        ? { judge: { model: options.judgeModel, ...(workerConfig.openaiBaseUrl ? { baseURL: workerConfig.openaiBaseUrl } : {}), ...(workerConfig.openaiApiKey ? { apiKey: workerConfig.openaiApiKey } : {}) } }
        : {}),
      ...(options.progress ? { progress: options.progress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await environment.close();
  }
  const cases = summarize(runs);
  const report: EvalReport = {
    format: REPORT_FORMAT,
    version: 1,
    suite: options.suite.path,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    ...(options.models ? { models: options.models } : {}),
    repeat: options.repeat,
    summary: {
      cases: cases.length,
      passedCases: cases.filter((summary) => summary.passed === summary.runs).length,
      runs: runs.length,
      passedRuns: runs.filter((run) => run.passed).length,
    },
    cases,
    runs,
  };
  if (baseline && options.baseline) report.baseline = { ...options.baseline, regressions: compareWithBaseline(cases, baseline, options.baseline.threshold) };
  return report;
}
