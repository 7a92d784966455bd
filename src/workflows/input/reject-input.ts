import { log } from '@temporalio/workflow';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../common/boundary/limits';
import { nowIso } from '../platform';
import { preview, recordEvent } from '../effects';
import type { RunState } from '../state';

/** The largest payload this run takes from outside. */
export function payloadLimit(state: RunState): number {
  return state.descriptor.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
}

/**
 * Something from outside the run could not use: logged and kept as an `input_rejected` event,
 * so a sender who cannot get an answer (a signal) can still see what happened to it.
 */
export function rejectInput(state: RunState, handler: string, reason: string, callId?: string): void {
  const shown = preview(reason, 500);
  log.warn('Rejected input', { handler, reason: shown, ...(callId ? { callId } : {}) });
  recordEvent(state, { type: 'input_rejected', handler, reason: shown, ...(callId ? { callId } : {}) }, nowIso());
}

/** The call id of a payload that may be anything, for the rejection event. */
export function callIdOf(raw: unknown): string | undefined {
  const id = (raw as { callId?: unknown } | null | undefined)?.callId;
  return typeof id === 'string' && id.length <= 256 ? id : undefined;
}
