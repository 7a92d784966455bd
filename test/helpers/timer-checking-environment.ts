import { promisify } from 'node:util';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';

/** How long jest waits for a worker process to exit after the run before it kills it (jest-worker's FORCE_EXIT_DELAY). */
const EXIT_GRACE_MS = 500;

interface SetTimer {
  due: number;
  repeats: boolean;
  where: string;
}

type Callback = (...args: unknown[]) => void;

/**
 * jest's node environment, which fails a test file that leaves a timer running: a setTimeout due
 * later than jest's exit grace, or a setInterval never cleared. Such a timer keeps jest's worker
 * alive after the run, and `npm test` ends with "A worker process has failed to exit gracefully"
 * and "Jest did not exit one second after the test run has completed" without naming the file;
 * here the file fails, saying where the timer was set (and the timer is cleared).
 */
export default class TimerCheckingEnvironment extends TestEnvironment {
  private readonly timers = new Map<NodeJS.Timeout, SetTimer>();

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const global = this.global as unknown as typeof globalThis;
    const { setTimeout: setOnce, setInterval: setRepeating, clearTimeout: clearOnce, clearInterval: clearRepeating } = global;
    const track = (timer: NodeJS.Timeout, delay: unknown, repeats: boolean): NodeJS.Timeout => {
      const where = (new Error().stack ?? '').split('\n').slice(3, 7).join('\n');
      this.timers.set(timer, { due: Date.now() + (Number(delay) || 0), repeats, where });
      return timer;
    };
    const setTimeout = (callback: Callback, delay?: number, ...args: unknown[]): NodeJS.Timeout => {
      const timer: NodeJS.Timeout = setOnce((...given: unknown[]) => {
        this.timers.delete(timer);
        callback(...given);
      }, delay, ...args);
      return track(timer, delay, false);
    };
    const setInterval = (callback: Callback, delay?: number, ...args: unknown[]): NodeJS.Timeout => track(setRepeating(callback, delay, ...args), delay, true);
    const forget = (clear: (timer: NodeJS.Timeout | undefined) => void) => (timer: NodeJS.Timeout | undefined) => {
      if (timer) this.timers.delete(timer);
      clear(timer);
    };
    // util.promisify(setTimeout) keeps working (untracked: it holds a promise someone awaits).
    global.setTimeout = Object.assign(setTimeout, { [promisify.custom]: (setOnce as unknown as Record<symbol, unknown>)[promisify.custom] }) as unknown as typeof globalThis.setTimeout;
    global.setInterval = setInterval as unknown as typeof globalThis.setInterval;
    global.clearTimeout = forget(clearOnce) as typeof globalThis.clearTimeout;
    global.clearInterval = forget(clearRepeating) as typeof globalThis.clearInterval;
  }

  override async teardown(): Promise<void> {
    const now = Date.now();
    const left = [...this.timers].filter(([timer, set]) => timer.hasRef() && (set.repeats || set.due - now > EXIT_GRACE_MS));
    for (const [timer] of left) clearTimeout(timer);
    this.timers.clear();
    await super.teardown();
    if (left.length > 0) {
      const described = left.map(([, set]) => `${set.repeats ? 'a setInterval' : `a setTimeout due in ${Math.round((set.due - now) / 1000)} s`}, set\n${set.where}`);
      throw new Error(`This test file left ${left.length} timer(s) running, which would keep jest's worker alive after the run (clear them, or unref() them):\n${described.join('\n')}`);
    }
  }
}
