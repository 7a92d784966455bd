import type { AgentDescriptor } from '../common/agent';
import { emptyUsage } from '../common/messages';
import type { AgentWorkflowInput } from '../common/run';
import { migrateCarriedAnswers } from './calls';
import { initialMessages, type RunState } from './run-state';
import { startingBudget } from './budget';

/** A run's state at its start: new, or carried over continue-as-new (answers carried by older releases migrated). */
export function createRunState(input: AgentWorkflowInput, descriptor: AgentDescriptor): RunState {
  const carried = input.carried;
  const budget = carried ? carried.budget : startingBudget(input, descriptor).budget;
  return {
    agent: input.agent,
    descriptor,
    runtime: input.runtime ?? {},
    maxIters: input.options?.maxIters ?? descriptor.maxIters,
    messages: carried?.messages ?? initialMessages(descriptor, input.prompt),
    usage: carried?.usage ?? emptyUsage(),
    cost: carried?.cost ?? 0,
    iterations: carried?.iterations ?? 0,
    activeGroups: carried?.activeGroups ?? descriptor.groups.filter((g) => g.active).map((g) => g.name),
    sessionRules: carried?.sessionRules ?? input.parent?.sessionRules ?? [],
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
    queuedInputs: carried?.queuedInputs ?? [],
    inputsAdded: carried?.inputsAdded ?? 0,
    outputRetries: carried?.outputRetries ?? 0,
    ...(budget ? { budget } : {}),
    ...(carried?.lastCall ? { lastCall: carried.lastCall } : {}),
  };
}

