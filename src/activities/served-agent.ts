import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { hostname } from 'node:os';
import type { WorkerRefusal } from '../common/definitions';
import { FailureTypes } from '../common/failures';
import { recordRefusedStep } from '../telemetry/activity-metrics';
import type { AgentRegistry, RegisteredAgent } from '../toolkit/agent-registry';

/** Tells a run that a worker left its step to another (the `workerRefused` signal); absent without a client. */
export type RefusalReporter = (workflowId: string, refusal: WorkerRefusal) => Promise<void>;

const REFUSED_RETRY_MS = 250;
const MAX_REFUSED_RETRY_MS = 10_000;

/** The worker as other workers and people see it in a refusal. */
export const WORKER_NAME = `${hostname()}:${process.pid}`;

/**
 * What a worker does with a step of a run whose agent it does not serve: a fleet may run several
 * agents modules on one task queue, and Temporal hands any worker any step. The step is refused
 * retryably (another worker of the queue takes a retry), never counted as the step's own failure
 * (src/activities/step-attempt.ts), logged, counted in a metric, and told to the run once, whose
 * Web UI details then say what it waits for.
 */
export class ServedAgents {
  constructor(
    private readonly registry: AgentRegistry,
    private readonly report?: RefusalReporter,
  ) {}

  serves(name: string): boolean {
    return this.registry.get(name) !== undefined;
  }

  /** The agent, or the refusal of the step (thrown). */
  require(name: string): RegisteredAgent {
    const agent = this.registry.get(name);
    if (agent) return agent;
    throw this.refuse(name);
  }

  /** An activity whose input names an agent, run only on a worker that serves it. */
  only<I extends { agent: string }, O>(run: (input: I) => Promise<O>): (input: I) => Promise<O> {
    return (input) => {
      if (!this.serves(input.agent)) return Promise.reject(this.refuse(input.agent));
      return run(input);
    };
  }

  /** What a local activity reports instead of failing: the workflow then schedules the step on the task queue. */
  refusal(name: string): WorkerRefusal {
    return { agent: name, worker: WORKER_NAME, serves: this.registry.names(), activity: Context.current().info.activityType };
  }

  private refuse(name: string): ApplicationFailure {
    const context = Context.current();
    const refusal = this.refusal(name);
    const serves = refusal.serves.join(', ') || 'no agent';
    context.log.warn(`Left a step to another worker: this worker does not serve agent '${name}'`, { ...refusal });
    recordRefusedStep(name, refusal.activity);
    const run = context.info.workflowExecution;
    // Once per step: its first attempt that a worker refused.
    if (this.report && run && context.info.attempt === 1) void this.report(run.workflowId, refusal).catch(() => undefined);
    return ApplicationFailure.create({
      message: `Worker ${WORKER_NAME} does not serve agent '${name}' (it serves: ${serves}); the ${refusal.activity} step waits for a worker of the task queue that does.`,
      type: FailureTypes.notServedHere,
      // Soon at first (another worker likely serves it now), slower while none does, whatever the step's own backoff.
      nextRetryDelay: Math.min(REFUSED_RETRY_MS * context.info.attempt, MAX_REFUSED_RETRY_MS),
    });
  }
}
