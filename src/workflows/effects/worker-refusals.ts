import { setCurrentDetails } from '@temporalio/workflow';
import type { WorkerRefusal } from '../../common/definitions';
import type { Writing } from '../state';
import { setStep } from './status';
import { refusedStep } from '../../common/refused-step';

/**
 * The Web UI's details while a step waits for a worker that serves the run's agent: a fleet of
 * several agents modules on one task queue, where the worker that took the step serves others.
 */
export function refusalDetails(agent: string, refusal: WorkerRefusal): string {
  const serves = refusal.serves.join(', ') || 'no agent';
  return [
    `Worker \`${refusal.worker}\` of this task queue serves ${serves}: it left the step to another. Start a worker whose agents module has \`${agent}\` on this task queue, or give each agents module a task queue of its own.`,
  ].join('\n');
}

function stepOf(agent: string, refusal: WorkerRefusal): string {
  return refusedStep(agent, refusal.activity);
}

/** Before the run is described (no state yet): the details alone; the step, for the starting state query. */
export function showRefusal(agent: string, refusal: WorkerRefusal): string {
  const step = stepOf(agent, refusal);
  setCurrentDetails([step, '', refusalDetails(agent, refusal)].join('\n'));
  return step;
}

/** The `workerRefused` signal: a worker left a step of this run to another. */
export function showRefusalInRun(state: Writing<'progress'>, refusal: WorkerRefusal): void {
  setStep(state, stepOf(state.agent, refusal), refusalDetails(state.agent, refusal));
}
