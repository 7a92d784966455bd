import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { judgeRuns, type RunOutcome } from '../../../chaos/chaos-report';
import { EffectLedger } from '../../../chaos/effect-ledger';
import { persist } from '../../../chaos/persist';
import type { AgentRun } from '../../../src/client/agent-run';
import type { AgentRunResult } from '../../../src/common/run';
import { startAgentTestEnv, type AgentTestEnv } from '../../helpers/agent-test-env';
import { waitFor } from '../../helpers/wait-for';
import { ledgerAgents, ledgerModels, REFUND_AGENT, REFUND_ANSWER, STEPS, STEPS_AGENT } from './ledger-agents';

const EventType = temporal.api.enums.v1.EventType;

export interface ChaosVerdict {
  runs: number;
  correct: number;
  effects: number;
  effectsOnce: number;
  reExecutions: number;
  workflowTaskFailed: number;
  failedThoughApplied: number;
  approvalsLanded: number;
  problems: string[];
}

/** The chaos run's mix on one worker: runs in side-effecting tool calls, and runs parked on an approval. */
export class ChaosScenario {
  readonly toolRuns: AgentRun[] = [];
  readonly approvalRuns: AgentRun[] = [];

  private constructor(
    readonly env: AgentTestEnv,
    readonly ledger: EffectLedger,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ChaosScenario> {
    const dir = mkdtempSync(join(tmpdir(), 'durable-agent-cluster-chaos-'));
    const ledger = new EffectLedger(dir);
    const env = await startAgentTestEnv({ agents: ledgerAgents(ledger), byModel: ledgerModels });
    return new ChaosScenario(env, ledger, dir);
  }

  /** Starts the runs and resolves once every approval waits and the tool runs are in mid-plan. */
  async launch(toolRuns: number, approvalRuns: number): Promise<void> {
    for (let i = 0; i < toolRuns; i++) this.toolRuns.push(await this.env.client.start(STEPS_AGENT, { prompt: `apply the ${STEPS} steps of plan ${i}` }));
    for (let i = 0; i < approvalRuns; i++) this.approvalRuns.push(await this.env.client.start(REFUND_AGENT, { prompt: `refund order ${i}` }));
    await waitFor(async () => ((await Promise.all(this.approvalRuns.map((run) => run.state()))).every((s) => s.pending.length === 1) ? true : undefined), 'every approval to wait', 60_000);
    const total = toolRuns * STEPS;
    await waitFor(async () => (this.ledger.effects().size >= Math.ceil(total / 3) ? true : undefined), 'the tool runs to be in mid-plan', 60_000);
  }

  /** Approves every parked call, retrying while the cluster is short of a process; an approval that landed before its answer was lost counts. */
  async approveAll(deadline: number): Promise<void> {
    await Promise.all(
      this.approvalRuns.map((run) =>
        persist(async () => {
          const { pending } = await run.state();
          if (pending.length === 0) return;
          await run.approve(pending[0]!.callId).catch((error: Error) => {
            if (!/already decided/.test(error.message)) throw error;
          });
        }, deadline),
      ),
    );
  }

  /** Waits for every run and checks it against the ledger: the right answer, each effect once, no workflow task failed. */
  async verdict(deadline: number): Promise<ChaosVerdict> {
    const outcomes = await Promise.all(this.toolRuns.map((run) => this.outcome(run, deadline)));
    const effects = this.ledger.effects();
    const judged = judgeRuns(outcomes, effects, this.ledger.executions(), STEPS);
    const approvals = await Promise.all(this.approvalRuns.map((run) => this.outcome(run, deadline)));
    const problems = [...judged.problems];
    let approvalsLanded = 0;
    let approvalEffectsOnce = 0;
    for (const outcome of approvals) {
      const applied = [...effects.keys()].filter((key) => key.startsWith(`${outcome.workflowId}:`)).length;
      if (applied === 1) approvalEffectsOnce += 1;
      if (outcome.result?.status === 'completed' && outcome.result.output === REFUND_ANSWER && applied === 1) approvalsLanded += 1;
      else problems.push(`${outcome.workflowId}: ${outcome.error ?? `${outcome.result?.status}, ${applied} refunds`}`);
    }
    return {
      runs: outcomes.length + approvals.length,
      correct: judged.correct + approvalsLanded,
      effects: outcomes.length * STEPS + approvals.length,
      effectsOnce: judged.effectsOnce + approvalEffectsOnce,
      reExecutions: judged.reExecutions,
      workflowTaskFailed: judged.workflowTaskFailed + approvals.reduce((sum, o) => sum + o.workflowTaskFailed, 0),
      failedThoughApplied: judged.failedThoughApplied,
      approvalsLanded,
      problems,
    };
  }

  async stop(): Promise<void> {
    await this.env.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async outcome(run: AgentRun, deadline: number): Promise<RunOutcome> {
    let result: AgentRunResult | undefined;
    let error: string | undefined;
    try {
      result = await persist(() => run.result(), deadline);
    } catch (e) {
      error = (e as Error).message;
    }
    const events = (await persist(() => run.handle.fetchHistory(), deadline)).events ?? [];
    return {
      workflowId: run.workflowId,
      ...(result ? { result } : {}),
      ...(error ? { error } : {}),
      workflowTaskFailed: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).length,
      activityRetries: events.filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1).length,
    };
  }
}

export function describeVerdict(v: ChaosVerdict): string {
  return (
    `${v.correct}/${v.runs} runs correct, ${v.effectsOnce}/${v.effects} effects applied once, ${v.approvalsLanded} approvals landed, ` +
    `${v.reExecutions} re-executions, ${v.workflowTaskFailed} WorkflowTaskFailed, ${v.failedThoughApplied} steps reported failed though applied`
  );
}
