import type { Message } from '../src/common/messages';
import type { AgentRunResult } from '../src/common/run';
import { finalAnswer } from './chaos-model';

/** What one run of the chaos agent left behind. */
export interface RunOutcome {
  workflowId: string;
  result?: AgentRunResult;
  /** Why the run has no result (it failed, or never finished). */
  error?: string;
  workflowTaskFailed: number;
  activityRetries: number;
}

export interface ChaosReport {
  runs: number;
  steps: number;
  workers: number;
  workerKills: number;
  serverRestarts: number;
  seconds: number;
  load: string;
  correct: number;
  effectsOnce: number;
  effectsMissing: number;
  effectsTwice: number;
  failedThoughApplied: number;
  reExecutions: number;
  activityRetries: number;
  workflowTaskFailed: number;
  /** The first few runs that went wrong, and how. */
  problems: string[];
}

type ToolMessage = Extract<Message, { role: 'tool' }>;

/** Checks every run against the ledger: each step's effect once, no step reported failed, the right answer. */
export function judgeRuns(outcomes: RunOutcome[], effects: Map<string, number>, executions: number, steps: number): Omit<ChaosReport, 'runs' | 'steps' | 'workers' | 'workerKills' | 'serverRestarts' | 'seconds' | 'load'> {
  const problems: string[] = [];
  let correct = 0;
  let effectsOnce = 0;
  let effectsMissing = 0;
  let effectsTwice = 0;
  let failedThoughApplied = 0;
  for (const outcome of outcomes) {
    const prefix = `${outcome.workflowId}:`;
    const perStep = new Map<number, number>();
    for (const [key, step] of effects) if (key.startsWith(prefix)) perStep.set(step, (perStep.get(step) ?? 0) + 1);
    for (let step = 1; step <= steps; step++) {
      const count = perStep.get(step) ?? 0;
      if (count === 1) effectsOnce += 1;
      else if (count === 0) effectsMissing += 1;
      else effectsTwice += 1;
    }
    const tools = (outcome.result?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');
    const failed = tools.filter((m) => m.state !== 'success');
    failedThoughApplied += failed.filter((m) => effects.has(`${prefix}${m.toolCallId}`)).length;
    const right = outcome.result?.status === 'completed' && outcome.result.output === finalAnswer(steps) && tools.length === steps && failed.length === 0;
    if (right) correct += 1;
    else if (problems.length < 10) {
      problems.push(`${outcome.workflowId}: ${outcome.error ?? `${outcome.result?.status}: ${failed.map((m) => m.content).join(' | ') || outcome.result?.output}`}`);
    }
  }
  return {
    correct,
    effectsOnce,
    effectsMissing,
    effectsTwice,
    failedThoughApplied,
    reExecutions: executions - effects.size,
    activityRetries: outcomes.reduce((sum, o) => sum + o.activityRetries, 0),
    workflowTaskFailed: outcomes.reduce((sum, o) => sum + o.workflowTaskFailed, 0),
    problems,
  };
}

/** Every promise of the durable run kept: the chaos run's pass/fail. */
export function chaosPassed(report: ChaosReport): boolean {
  return report.correct === report.runs && report.effectsOnce === report.runs * report.steps && report.failedThoughApplied === 0 && report.workflowTaskFailed === 0;
}

export function formatReport(report: ChaosReport): string[] {
  const total = report.runs * report.steps;
  return [
    `chaos: ${report.runs} runs × ${report.steps} tool steps, ${report.workers} worker processes, ${report.workerKills} workers SIGKILLed, ` +
      `the server SIGKILLed and restarted ${report.serverRestarts}×, default settings; ${report.seconds.toFixed(1)} s; ${report.load}`,
    `  runs correct:                          ${report.correct}/${report.runs}`,
    `  effects applied once:                  ${report.effectsOnce}/${total} (missing ${report.effectsMissing}, applied twice ${report.effectsTwice})`,
    `  steps reported failed though applied:  ${report.failedThoughApplied}`,
    `  re-executions (a call run again):      ${report.reExecutions}`,
    `  activity retries (attempts after 1):   ${report.activityRetries}`,
    `  WorkflowTaskFailed:                    ${report.workflowTaskFailed}`,
    ...report.problems.map((problem) => `  ! ${problem}`),
    chaosPassed(report) ? 'chaos: every promise kept' : 'chaos: FAILED',
  ];
}
