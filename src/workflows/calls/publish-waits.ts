import { upsertMemo } from '@temporalio/workflow';
import { WAITS_MEMO_KEY } from '../../common/contracts/published-waits';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import type { RunState } from '../state';
import { publishedWaits } from './views';

/**
 * Publishes what the run waits on in its memo when that changed, in runs described with the
 * feature. The first publication comes with the first wait (a parent waiting only on its
 * sub-agents publishes an empty list), so a run that never waits writes no memo at all.
 */
export function publishWaits(state: RunState): void {
  if (!hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.publishedWaits)) return;
  const waits = publishedWaits(state);
  const key = JSON.stringify(waits.calls);
  if (state.publishedWaits === key) return;
  if (state.publishedWaits === undefined && waits.calls.length === 0 && !isWaiting(state)) return;
  state.publishedWaits = key;
  upsertMemo({ [WAITS_MEMO_KEY]: waits });
}

function isWaiting(state: RunState): boolean {
  return state.status === 'awaiting_approval' || state.status === 'awaiting_external';
}
