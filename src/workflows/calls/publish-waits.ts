import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import type { Change } from '../effects';
import type { Writing } from '../state';
import { publishedWaits } from './views';

/**
 * What the run waits on, to publish in its memo when that changed, in runs described with the
 * feature. The first publication comes with the first wait (a parent waiting only on its
 * sub-agents publishes an empty list), so a run that never waits writes no memo at all.
 */
export function waitsToPublish(state: Writing<'calls'>): Change {
  if (!hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.publishedWaits)) return {};
  const waits = publishedWaits(state);
  const key = JSON.stringify(waits.calls);
  if (state.publishedWaits === key) return {};
  if (state.publishedWaits === undefined && waits.calls.length === 0 && !isWaiting(state)) return {};
  state.publishedWaits = key;
  return { waits };
}

function isWaiting(state: Writing<'calls'>): boolean {
  return state.status === 'awaiting_approval' || state.status === 'awaiting_external';
}
