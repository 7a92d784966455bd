import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../common/boundary/limits';
import type { Reading } from '../state';

/** The largest payload this run takes from outside. */
export function payloadLimit(state: Reading): number {
  return state.descriptor.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
}

/** The call id of a payload that may be anything, for the rejection event. */
export function callIdOf(raw: unknown): string | undefined {
  const id = (raw as { callId?: unknown } | null | undefined)?.callId;
  return typeof id === 'string' && id.length <= 256 ? id : undefined;
}
