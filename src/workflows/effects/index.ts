/**
 * The only code that writes outward from a run: its event log, its status, step and details in the
 * Web UI, its search attributes, memo and notices. The rest of the workflow code says what
 * changed (a Change); `apply` writes it.
 */
export { apply } from './apply';
export type { Change, NoticeBody, RejectedInput } from './change';
export { eventsAfter, preview } from './event-log';
export { deliverHandedOver } from './notify-waits';
export { announceFailedStart, SPARSE_SEARCH_ATTRIBUTES_PATCH } from './status';
export { showRefusal, showRefusalInRun } from './worker-refusals';
