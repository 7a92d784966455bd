/**
 * The run's state: its type, carried over continue-as-new, and the views of it.
 */
export { costField, initialMessages, type RunState } from './run-state';
