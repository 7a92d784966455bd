import { linkedAbort } from '../common/linked-abort';

/** The signal of one model call, and what to do once the call is over. */
export interface CallSignal {
  signal: AbortSignal;
  /** True when the deadline, not the caller, aborted the call. */
  deadlinePassed(): boolean;
  /** Clears the deadline and lets go of the caller's signal. */
  release(): void;
}

/** Aborted when the caller's signal is, or at the deadline. */
export function callSignal(caller: AbortSignal | undefined, timeoutMs: number): CallSignal {
  const { controller, release } = linkedAbort(caller);
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    controller.abort();
  }, timeoutMs);
  return {
    signal: controller.signal,
    deadlinePassed: () => passed,
    release() {
      clearTimeout(timer);
      release();
    },
  };
}
