import { BUDGET_TOOL } from '../common/budget';
import type { PendingCall } from '../common/run';
import type { AgentRun } from '../client/agent-run';
import { matches } from './arg-matchers';
import { shortJson } from './canonical-json';
import type { EvalAnswer } from './suite-schema';

/** Who the eval answers as, in the runs' events. */
export const EVAL_ANSWERER = 'durable-agent eval';

function fits(answer: EvalAnswer, call: PendingCall): boolean {
  const external = answer.action === 'submit';
  if (external !== (call.kind === 'external')) return false;
  const tool = answer.tool ?? (answer.action === 'allow_budget' ? BUDGET_TOOL : undefined);
  return tool === call.tool && matches(answer.when, call.input);
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/** Whether an answer may answer one more call: once by default, `times` calls, or every call with `'every'`. */
function left(answer: EvalAnswer, used: number): boolean {
  return answer.times === 'every' || used < (answer.times ?? 1);
}

/**
 * Answers the calls a case's run waits on from the case's answers: each call gets the first answer
 * with uses left (see `times`) whose tool and `when` fit it. A call no answer fits is reported, and the case fails.
 */
export class WaitAnswerer {
  /** How many calls each answer has answered. */
  private readonly used = new Map<number, number>();
  private readonly answered = new Set<string>();

  constructor(
    private readonly answers: readonly EvalAnswer[],
    /** A sub-agent's run, where its waiting calls are answered. */
    private readonly runOf: (workflowId: string) => AgentRun,
  ) {}

  /** Answers every call the run waits on now; the reason the case fails when one has no answer. */
  async answerPending(run: AgentRun): Promise<string | undefined> {
    const { pending } = await run.state();
    for (const call of pending) {
      const key = `${call.workflowId ?? run.workflowId} ${call.callId}`;
      if (this.answered.has(key)) continue;
      const index = this.answers.findIndex((answer, at) => left(answer, this.used.get(at) ?? 0) && fits(answer, call));
      if (index < 0) return `no answer for waiting call ${call.callId} (${call.tool}, ${shortJson(call.input)})`;
      this.used.set(index, (this.used.get(index) ?? 0) + 1);
      this.answered.add(key);
      const holder = call.workflowId && call.workflowId !== run.workflowId ? this.runOf(call.workflowId) : run;
      const problem = await this.send(this.answers[index]!, call, holder).then(
        () => undefined,
        (error: unknown) => `the answer to waiting call ${call.callId} (${call.tool}) was refused: ${(error as Error).message}`,
      );
      if (problem) return problem;
    }
    return undefined;
  }

  private async send(answer: EvalAnswer, call: PendingCall, run: AgentRun): Promise<unknown> {
    const by = { answeredBy: EVAL_ANSWERER };
    switch (answer.action) {
      case 'deny':
        return run.deny(call.callId, answer.reason ?? 'denied by the eval case', by);
      case 'submit':
        return run.submit(call.callId, outputText(answer.output), { ...(answer.isError ? { isError: true } : {}), ...by });
      default:
        return run.approve(call.callId, { ...(answer.input !== undefined ? { input: answer.input } : {}), ...(answer.reason ? { reason: answer.reason } : {}), ...by });
    }
  }
}
