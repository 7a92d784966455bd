/** The run's state: its type, carried over continue-as-new, in slices that each have their writers. */
export { costField, initialMessages, type RunState } from './run-state';
export { SLICES, SLICE_WRITERS, type Reading, type SliceName, type Writing } from './slices';
