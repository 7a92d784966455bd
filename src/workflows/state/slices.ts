import type { RunState } from './run-state';

/**
 * The run's state in slices, and which rooms of the workflow code write each. A room's functions
 * take the state as `Writing<slice>`: its own slice writable, the rest read-only, so writing
 * another room's slice does not compile (and the import-rules test finds the writes a type cannot
 * see, such as a push onto another slice's list). It asks the owner instead (spend's `charge`,
 * calls' transitions, effects' `apply`). Only run/ takes the state whole.
 */
export const SLICES = {
  /** What the world sees of the run: its status and step, its events, the notices on their way (effects/). */
  progress: ['status', 'currentStep', 'events', 'nextEventSeq', 'noticesInFlight'],
  /** The tool calls of the batch in hand and what was decided about them (calls/). */
  calls: ['calls', 'publishedWaits', 'sessionRules'],
  /** The conversation and what the model is shown of it (context/, model/, toolset/). */
  context: ['messages', 'queuedInputs', 'inputsAdded', 'window', 'modelSeen', 'lastCall', 'activeGroups', 'outputRetries'],
  /** What the run spent and may spend (spend/). */
  spend: ['usage', 'cost', 'budget', 'subAgents'],
  /** The run itself: its agent and description, where it is in its loop and its chain of runs (run/). */
  run: ['agent', 'descriptor', 'runtime', 'maxIters', 'iterations', 'emptyReplies', 'continuedRuns', 'sparseSearchAttributes', 'parent', 'fork', 'warnedCarrySize', 'output'],
} as const satisfies Record<string, readonly (keyof RunState)[]>;

export type SliceName = keyof typeof SLICES;

/** The rooms that write each slice (run/ writes every slice: it takes the state whole). */
export const SLICE_WRITERS: Record<SliceName, readonly string[]> = {
  progress: ['effects'],
  calls: ['calls'],
  context: ['context', 'model', 'toolset'],
  spend: ['spend'],
  run: ['run'],
};

type KeysOf<S extends SliceName> = (typeof SLICES)[S][number];

/** The state as a room that writes slice `S` sees it: that slice writable, every other field read-only. */
export type Writing<S extends SliceName> = Readonly<Omit<RunState, KeysOf<S>>> & Pick<RunState, KeysOf<S>>;

/** The state as a room that writes none of it sees it (it asks the owners). */
export type Reading = Readonly<RunState>;

/** Every field of the state belongs to one slice: a field added without one does not compile. */
type Unsliced = Exclude<keyof RunState, KeysOf<SliceName>>;
export const EVERY_FIELD_SLICED: [Unsliced] extends [never] ? true : Unsliced = true;
