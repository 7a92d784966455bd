import { CancellationScope, isCancellation } from '@temporalio/workflow';
import type { AddedInput } from '../../common/definitions';
import type { Payload } from '../../common/boundary/payload-schemas';
import { apply, preview } from '../effects';
import type { Writing } from '../state';

/**
 * Steering: user messages added to a run while it works or waits (`addInput`). Each is queued and
 * the next model call sees them, in the order they came, once; the loop does not end on an answer
 * while one is queued. An agent with `steering: 'interrupt'` cancels the model call in flight
 * instead of letting it finish, and makes it again with them.
 */

/** The model call in flight of an interrupting agent, and whether an input cancelled it. */
const inFlight = new WeakMap<Writing<'context'>, { scope: CancellationScope; interrupted: boolean }>();

/** Why an input cannot be added now, or undefined: a run takes input while its loop runs (a conversation only during a turn). */
export function inputRefusal(state: Writing<'context'>): string | undefined {
  if (state.status === 'idle') return 'the conversation is idle: send it a message instead';
  if (state.status === 'running' || state.status === 'awaiting_approval' || state.status === 'awaiting_external') return undefined;
  return `the run has ended (${state.status}); it takes no more input`;
}

export function addInput(state: Writing<'context'>, request: Payload<'addInput'>): AddedInput {
  state.inputsAdded += 1;
  const input = { position: state.inputsAdded, text: request.text, ...(request.addedBy !== undefined ? { addedBy: request.addedBy } : {}) };
  state.queuedInputs.push(input);
  apply(state, { events: [{ type: 'input_added', position: input.position, text: preview(input.text), ...(input.addedBy !== undefined ? { addedBy: input.addedBy } : {}) }] });
  const call = inFlight.get(state);
  if (!call) return { position: input.position, delivery: 'queued' };
  call.interrupted = true;
  call.scope.cancel();
  return { position: input.position, delivery: 'interrupting' };
}

export function hasQueuedInput(state: Writing<'context'>): boolean {
  return state.queuedInputs.length > 0;
}

/** The queued inputs become user messages of the conversation, oldest first. */
export function deliverInputs(state: Writing<'context'>): void {
  if (state.queuedInputs.length === 0) return;
  for (const input of state.queuedInputs) state.messages.push({ role: 'user', content: input.text });
  state.queuedInputs = [];
}

/**
 * The model call, cancelled when an input is added while it runs (an interrupting agent), then
 * made again with the input, as often as inputs come. Other agents' calls run as they always have
 * (no scope: the commands of recorded runs stay as they were).
 */
export function interruptibleCall<T>(state: Writing<'context'>, call: () => Promise<T>): Promise<T> {
  return state.descriptor.steering === 'interrupt' ? callUntilUninterrupted(state, call) : call();
}

async function callUntilUninterrupted<T>(state: Writing<'context'>, call: () => Promise<T>): Promise<T> {
  for (;;) {
    const current = { scope: new CancellationScope(), interrupted: false };
    inFlight.set(state, current);
    try {
      return await current.scope.run(call);
    } catch (error) {
      if (!current.interrupted || !isCancellation(error) || CancellationScope.current().consideredCancelled) throw error;
      apply(state, { events: [{ type: 'model_call_interrupted', iteration: state.iterations, inputs: state.queuedInputs.length }] });
      deliverInputs(state);
    } finally {
      inFlight.delete(state);
    }
  }
}
