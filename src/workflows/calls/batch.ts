import type { PreparedCall } from '../../common/contracts/tool-calls';
import type { ToolResultState } from '../../common/messages';
import type { RunState } from '../state';
import { recordOf } from './book';
import type { CallChange } from './change';
import { move, writable } from './phases';

/** A call's way through its batch on this run: checked, run, settled. */

function record(state: RunState, callId: string) {
  const found = recordOf(state, callId);
  if (!found) throw new Error(`tool call '${callId}' has no record in this batch`);
  return found;
}

export function startChecking(state: RunState, callIds: readonly string[]): void {
  for (const callId of callIds) move(record(state, callId), 'check', { name: 'checking' });
}

/**
 * The check's verdict on a call: it waits for its turn with its checked input and the engine's
 * decision (a call the check already ran stays where running took it).
 */
export function checked(state: RunState, prepared: PreparedCall): CallChange {
  const target = writable(record(state, prepared.callId));
  if (target.phase.name === 'checking') move(target, 'checked', { name: 'queued' });
  if ('input' in prepared) target.input = prepared.input;
  if (!('decision' in prepared) || !prepared.decision) return {};
  const { callId, tool, decision } = { ...prepared, decision: prepared.decision };
  target.permission = decision;
  return {
    decisions: [{ callId, tool, behavior: decision.behavior, by: 'rules', reason: decision.reason }],
    ...(prepared.outcome === 'result' ? { events: [{ type: 'permission_decided', callId, tool, behavior: 'deny', by: 'rules', reason: decision.reason }] } : {}),
  };
}

/** A worker runs the call (or the check that runs it). */
export function startRunning(state: RunState, callId: string): void {
  move(record(state, callId), 'run', { name: 'running' });
}

/** The call's result is in; settling a settled call again (its wait already did) changes nothing. */
export function settle(state: RunState, callId: string, result: ToolResultState): void {
  const target = recordOf(state, callId);
  if (!target || target.phase.name === 'settled') return;
  move(target, 'settle', { name: 'settled', state: result });
}
