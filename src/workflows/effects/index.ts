/**
 * The only code that writes outward from a run: its event log, its status, step and details in the
 * Web UI, its search attributes, memo and notices. The rest of the workflow code says what
 * changed; this folder writes it.
 */
export { eventsAfter, preview, recordEvent } from './event-log';
export { deliverNotice, notifyWait } from './notify-waits';
export { SPARSE_SEARCH_ATTRIBUTES_PATCH, announceAgent, publishUsage, setStatus, setStep } from './status';
export { showRefusal, showRefusalInRun } from './worker-refusals';
