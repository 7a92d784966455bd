import type { Change } from '../effects';

export type { NoticeBody } from '../effects';

/**
 * What one transition of a call did, as data: a transition changes the record and returns this.
 * Beside what the run writes outward (a Change, applied by effects/), it says what the calls'
 * views must show again; applyChange turns that into changes in one fixed order.
 */
export interface CallChange extends Change {
  /** What waits changed: the Web UI's details (and, in runs that publish it, the memo) follow. */
  waitsChanged?: boolean;
  /** What the run's sub-agents wait for changed: its status and details follow while it waits on nothing of its own. */
  subAgentWaitsChanged?: boolean;
  /**
   * Runs described before `ordered-call-effects` recorded this change's notices before its
   * status (their commands must replay in that order).
   */
  noticesFirstInOlderRuns?: boolean;
}
