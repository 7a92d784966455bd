import { canonicalJson } from '../../common/canonical-json';
import type { PreparedCall, ToolCallResult } from '../../common/contracts/tool-calls';
import { parsedArguments } from '../../common/describe-edit';
import type { AgentEventBody } from '../../common/events';
import type { ToolCall } from '../../common/messages';
import type { ToolCallRecord } from '../../common/tool-call-record';
import { preview } from '../effects';
import { nowMs } from '../platform';
import type { Writing } from '../state';
import { recordOf } from './book';
import type { CallChange } from './change';
import { move, writable } from './phases';

/** A call's way through its batch on this run: checked, run, settled. */

function record(state: Writing<'calls'>, callId: string) {
  const found = recordOf(state, callId);
  if (!found) throw new Error(`tool call '${callId}' has no record in this batch`);
  return found;
}

/**
 * The worker checks the calls. When one activity checks the batch's single call and, if the rules
 * allow, runs it too (`runsToo`), the call's start is told now, with the model's arguments.
 */
export function startChecking(state: Writing<'calls'>, calls: readonly ToolCall[], runsToo: boolean): CallChange {
  for (const call of calls) move(record(state, call.id), 'check', { name: 'checking' });
  const call = calls[0];
  if (!runsToo || !call) return {};
  writable(record(state, call.id)).startedAt = nowMs();
  return { step: { text: `running ${call.name}` }, events: [{ type: 'tool_call_started', callId: call.id, tool: call.name, input: parsedArguments(call.arguments) }] };
}

/**
 * The check's verdict on a call: it waits for its turn with its checked input and the engine's
 * decision (a call the check already ran stays where running took it).
 */
export function checked(state: Writing<'calls'>, prepared: PreparedCall): CallChange {
  const target = writable(record(state, prepared.callId));
  if (target.phase.name === 'checking') move(target, 'checked', { name: 'queued' });
  if ('input' in prepared) target.input = prepared.input;
  if (!('decision' in prepared) || !prepared.decision) return {};
  const { callId, tool, decision } = { ...prepared, decision: prepared.decision };
  target.permission = decision;
  // A denial is an event; so is an approval policy's allow (docs/policies.md), never the rules' own.
  const decided = prepared.outcome === 'result' || (prepared.outcome === 'run' && decision.policy !== undefined);
  const behavior = prepared.outcome === 'run' ? ('allow' as const) : ('deny' as const);
  return {
    decisions: [{ callId, tool, behavior: decision.behavior, by: 'rules', reason: decision.reason }],
    ...(decided ? { events: [{ type: 'permission_decided', callId, tool, behavior, by: 'rules', reason: decision.reason, ...(decision.policy ? { policy: decision.policy } : {}) }] } : {}),
  };
}

/** A worker runs the call with `input`: its start is told, unless the check that runs it told it already. */
export function startRunning(state: Writing<'calls'>, callId: string, input: unknown): CallChange {
  const target = record(state, callId);
  const toldByCheck = target.phase.name === 'checking';
  move(target, 'run', { name: 'running' });
  if (toldByCheck) return {};
  writable(target).startedAt = nowMs();
  return { events: [{ type: 'tool_call_started', callId, tool: target.tool, input }] };
}

/**
 * The call's result is in; settling a settled call again (its wait already did) changes nothing.
 * A call a worker began running is told finished, with how long it took.
 */
export function settle(state: Writing<'calls'>, callId: string, result: ToolCallResult): CallChange {
  const target = recordOf(state, callId);
  if (!target || target.phase.name === 'settled') return {};
  move(target, 'settle', { name: 'settled', state: result.state });
  if (target.startedAt === undefined) return {};
  const finished: AgentEventBody = {
    type: 'tool_call_finished',
    callId,
    tool: target.tool,
    state: result.state,
    durationMs: nowMs() - target.startedAt,
    preview: preview(result.content),
    ...ranWithOtherInput(state, target),
  };
  return { events: [finished] };
}

/** The input the tool ran with, when its start event told other arguments (the check read them). */
function ranWithOtherInput(state: Writing<'calls'>, target: ToolCallRecord): { input?: unknown } {
  if (target.input === undefined) return {};
  for (let index = state.events.length - 1; index >= 0; index--) {
    const event = state.events[index]!;
    if (event.type !== 'tool_call_started' || event.callId !== target.callId) continue;
    return canonicalJson(event.input) === canonicalJson(target.input) ? {} : { input: target.input };
  }
  return {};
}
