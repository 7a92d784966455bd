import type { CarriedState } from '../../common/run';
import { carriedRecords } from '../calls';
import type { RunState } from '../state';

/** What continue-as-new carries of a run into the next one. */
export function carryState(state: RunState): CarriedState {
  return {
    descriptor: state.descriptor,
    messages: state.messages,
    usage: state.usage,
    cost: state.cost,
    iterations: state.iterations,
    activeGroups: state.activeGroups,
    sessionRules: state.sessionRules,
    events: state.events,
    nextEventSeq: state.nextEventSeq,
    calls: carriedRecords(state),
    continuedRuns: state.continuedRuns + 1,
    modelSeen: state.modelSeen,
    ...(state.window ? { window: state.window } : {}),
    ...(state.subAgents.length > 0 ? { subAgents: state.subAgents } : {}),
    ...(state.inputsAdded > 0 ? { queuedInputs: state.queuedInputs, inputsAdded: state.inputsAdded } : {}),
    ...(state.outputRetries > 0 ? { outputRetries: state.outputRetries } : {}),
    ...(state.budget ? { budget: state.budget } : {}),
    ...(state.lastCall ? { lastCall: state.lastCall } : {}),
    ...(state.fork ? { fork: state.fork } : {}),
  };
}

