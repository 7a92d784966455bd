import { classifyConnectError, type ConnectFailure } from './classify-connect-error';
import { connectFailureMessage } from './connect-failure-message';
import type { ConnectionSettings } from './connection-settings';
import { probeEndpoint, type Probe } from './probe-endpoint';
import { TemporalConnectionError } from './temporal-connection-error';

export type ProbePlan =
  /**
   * A direct probe first; the connection starts once the probe is through (or after `headStartMs`),
   * and a probe that fails for good ends the attempt at once. For a connection that on its own
   * only ever times out, and that leaves a timer behind when abandoned while it retries.
   */
  | { mode: 'first'; headStartMs: number }
  /** The probe only explains a failure the connection could not name. */
  | { mode: 'after-failure' }
  | { mode: 'never' };

export interface ConnectPlan<T> {
  settings: ConnectionSettings;
  connect(): Promise<T>;
  /** Closes a connection that arrived after the attempt had already failed. */
  close(connection: T): Promise<void>;
  /** Stops a connection attempt still under way when the attempt fails (timeout, probe). */
  abandon?(): void;
  probe: ProbePlan;
}

const MIN_PROBE_MS = 500;
/** Failures that say little about why; a probe is asked for more. */
const VAGUE = new Set(['closed', 'other']);

function connectError(settings: ConnectionSettings, found: ConnectFailure): TemporalConnectionError {
  return new TemporalConnectionError(connectFailureMessage(settings, found), settings.address, found.kind);
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** Connects, or fails within the settings' timeout with a TemporalConnectionError naming the address and the cause. */
export function connectWithin<T>(plan: ConnectPlan<T>): Promise<T> {
  const { settings } = plan;
  const deadline = Date.now() + settings.connectTimeoutMs;

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let started = false;
    let probe: Probe | undefined;
    const timers: NodeJS.Timeout[] = [];
    const startProbe = (onOpen?: () => void): Probe =>
      (probe ??= probeEndpoint(settings, Math.max(MIN_PROBE_MS, deadline - Date.now()), onOpen));

    const settle = (outcome: () => void): boolean => {
      if (settled) return false;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      probe?.cancel();
      outcome();
      return true;
    };
    const fail = (found: ConnectFailure): void => {
      if (settle(() => reject(connectError(settings, found))) && started) plan.abandon?.();
    };

    const connectionFailed = async (error: unknown): Promise<void> => {
      if (settled) return;
      const own = classifyConnectError(error) ?? { kind: 'other', detail: messageOf(error) };
      // A closed connection can mean a refused client certificate; the probe may tell.
      if (!VAGUE.has(own.kind) || plan.probe.mode === 'never') return fail(own);
      const probed = await startProbe().result;
      const found = probed.ok ? undefined : classifyConnectError(probed.error);
      fail(found && !VAGUE.has(found.kind) && found.kind !== 'timeout' ? found : own);
    };
    const start = (): void => {
      if (started || settled) return;
      started = true;
      plan.connect().then((connection) => {
        if (!settle(() => resolve(connection))) void plan.close(connection).catch(() => undefined);
      }, connectionFailed);
    };

    timers.push(setTimeout(() => fail({ kind: 'timeout', detail: '' }), settings.connectTimeoutMs));
    if (plan.probe.mode !== 'first') return start();
    timers.push(setTimeout(start, plan.probe.headStartMs));
    void startProbe(start).result.then((probed) => {
      const found = probed.ok ? undefined : classifyConnectError(probed.error);
      // A probe that timed out or was cut off proves nothing; the connection itself decides.
      if (found && found.kind !== 'timeout' && !VAGUE.has(found.kind)) fail(found);
      else start();
    });
  });
}
