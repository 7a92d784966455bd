import { MAX_PUBLISHED_CALLS, publishedInput, type PublishedCall, type PublishedWaits, type TopRun } from '../../common/contracts/published-waits';
import type { PendingCall } from '../../common/run';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { Reading } from '../state';
import { specOf } from '../toolset';
import { ALLOWANCE_JSON_SCHEMA } from '../../common/budget';
import { isBudgetCall } from './budget-call';
import type { JsonSchema } from '../../common/tools';
import { argumentsDigest } from '../../common/arguments-digest';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { approvalFactsOf } from '../../common/approval-facts';

/** What a waiting approval says of its approvers and what an answer binds to, in runs with `answer-rules`. */
function answerRulesView(state: Reading, record: ToolCallRecord): Partial<PendingCall> {
  if (!hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.answerRules)) return {};
  return approvalFactsOf({ ...record, argumentsDigest: argumentsDigest(record.input) });
}

/** The views of the run's call records: what waits, what the state query shows, what is carried and published. */

type SubAgentRecord = ToolCallRecord & { phase: Extract<ToolCallRecord['phase'], { name: 'in_sub_agent' }> };

function pendingOf(state: Reading, record: ToolCallRecord): PendingCall | undefined {
  const schema = () => {
    const parameters = isBudgetCall(record) ? (ALLOWANCE_JSON_SCHEMA as JsonSchema) : specOf(state.descriptor, record.tool)?.parameters;
    return parameters ? { schema: parameters } : {};
  };
  if (record.phase.name === 'awaiting_approval' && !record.answer) {
    return {
      callId: record.callId,
      tool: record.tool,
      kind: 'approval',
      ...(isBudgetCall(record) ? { budget: true as const } : {}),
      input: record.input,
      ...(record.permission ? { decision: record.permission } : {}),
      since: record.askedAt!,
      ...(record.repeats ? { repeats: record.repeats } : {}),
      ...schema(),
      ...answerRulesView(state, record),
    };
  }
  if (record.phase.name === 'awaiting_external' && !record.submission) {
    return { callId: record.callId, tool: record.tool, kind: 'external', input: record.input, since: record.externalAt!, ...schema() };
  }
  return undefined;
}

/** The run's own calls that wait for a person or an outside result now, each with its tool's input schema. */
export function ownPending(state: Reading): PendingCall[] {
  return state.calls.flatMap((record) => pendingOf(state, record) ?? []);
}

export function subAgentRecords(state: Reading): SubAgentRecord[] {
  return state.calls.filter((record): record is SubAgentRecord => record.phase.name === 'in_sub_agent');
}

/** What the run's sub-agents (at any depth) wait on, as they reported it. */
export function waitsInSubAgents(state: Reading): PendingCall[] {
  return subAgentRecords(state).flatMap((record) => record.phase.waiting);
}

/** Every call the run waits on: its own, then those its sub-agents (at any depth) wait on. */
export function allPending(state: Reading): PendingCall[] {
  return [...ownPending(state), ...waitsInSubAgents(state)];
}

/** The records of the batch as the state query shows them (unseen answers are nobody's call yet). */
export function visibleRecords(state: Reading): ToolCallRecord[] {
  return state.calls.filter((record) => record.phase.name !== 'unseen');
}

/** Answers kept for calls not seen yet, to carry over continue-as-new. */
export function carriedRecords(state: Reading): ToolCallRecord[] {
  return state.calls.filter((record) => record.phase.name === 'unseen');
}

/**
 * The sub-agent run (at any depth) that holds a waiting call, when it is not this run's own.
 * Sub-agents number their calls alike, so one id may wait in several: then the answer cannot be
 * passed on, and the sender is told to use the holding run's id.
 */
export function subAgentHolding(state: Reading, callId: string): PendingCall | undefined {
  if (ownPending(state).some((p) => p.callId === callId)) return undefined;
  const holders = waitsInSubAgents(state).filter((call) => call.callId === callId);
  if (holders.length > 1) {
    throw new Error(`tool call '${callId}' waits in ${holders.length} sub-agent runs (${holders.map((h) => h.workflowId).join(', ')}): answer it through the id of the run that holds it`);
  }
  return holders[0];
}

/** The top-level run above this one, when it is a sub-agent run. */
export function topRunOf(state: Reading): TopRun | undefined {
  const parent = state.parent;
  if (!parent) return undefined;
  return parent.root ?? { workflowId: parent.workflowId };
}

/** What the run publishes about its own waiting calls (its sub-agents publish theirs). */
export function publishedWaits(state: Reading): PublishedWaits {
  const calls = ownPending(state)
    .slice(0, MAX_PUBLISHED_CALLS)
    .map(
      (call): PublishedCall => ({
        callId: call.callId,
        tool: call.tool,
        kind: call.kind,
        since: call.since,
        ...(call.decision?.reason ? { reason: call.decision.reason } : {}),
        ...(call.decision?.suggestedRule ? { suggestedRule: call.decision.suggestedRule } : {}),
        ...(call.repeats ? { repeats: call.repeats } : {}),
        ...publishedInput(call.input),
        ...approvalFactsOf(call),
      }),
    );
  const top = topRunOf(state);
  return {
    v: 1,
    agent: state.agent,
    ...(state.runtime.userId !== undefined ? { startedBy: state.runtime.userId } : {}),
    ...(top ? { top } : {}),
    calls,
  };
}
