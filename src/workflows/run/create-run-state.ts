import type { AgentDescriptor } from '../../common/agent';
import { emptyUsage } from '../../common/messages';
import type { AgentWorkflowInput } from '../../common/run';
import { migrateCarriedAnswers } from '../calls';
import { initialMessages, type RunState } from '../state';
import { startingBudget } from '../spend';
import type { ForkStart } from '../../common/fork';

function lastPosition(inputs: { position: number }[] | undefined): number {
  return (inputs ?? []).reduce((last, input) => Math.max(last, input.position), 0);
}

/** A run's state at its start: new, a fork's, or carried over continue-as-new (answers carried by older releases migrated). */
export function createRunState(input: AgentWorkflowInput, descriptor: AgentDescriptor, fork?: ForkStart): RunState {
  const carried = input.carried;
  const from = carried ? undefined : fork;
  const budget = carried ? carried.budget : startingBudget(input, descriptor).budget;
  return {
    agent: input.agent,
    descriptor,
    runtime: input.runtime ?? {},
    maxIters: input.options?.maxIters ?? descriptor.maxIters,
    messages: carried?.messages ?? from?.messages ?? initialMessages(descriptor, input.prompt),
    usage: carried?.usage ?? from?.usage ?? emptyUsage(),
    cost: carried?.cost ?? from?.cost ?? 0,
    iterations: carried?.iterations ?? from?.iterations ?? 0,
    activeGroups: carried?.activeGroups ?? from?.activeGroups ?? descriptor.groups.filter((g) => g.active).map((g) => g.name),
    sessionRules: carried?.sessionRules ?? from?.sessionRules ?? input.parent?.sessionRules ?? [],
    status: 'running',
    currentStep: 'starting',
    calls: migrateCarriedAnswers(carried),
    events: carried?.events ?? [],
    nextEventSeq: carried?.nextEventSeq ?? 1,
    emptyReplies: 0,
    continuedRuns: carried?.continuedRuns ?? 0,
    sparseSearchAttributes: false,
    modelSeen: carried?.modelSeen ?? 0,
    ...(carried?.window ? { window: carried.window } : {}),
    ...(input.parent ? { parent: input.parent } : {}),
    subAgents: carried?.subAgents ?? [],
    noticesInFlight: [],
    queuedInputs: carried?.queuedInputs ?? from?.queuedInputs ?? [],
    inputsAdded: carried?.inputsAdded ?? lastPosition(from?.queuedInputs),
    outputRetries: carried?.outputRetries ?? 0,
    ...(budget ? { budget } : {}),
    ...(carried?.lastCall ? { lastCall: carried.lastCall } : {}),
    ...(carried?.fork ? { fork: carried.fork } : from ? { fork: from.origin } : {}),
  };
}

