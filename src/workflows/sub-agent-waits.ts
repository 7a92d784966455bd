import { CancellationScope, condition, getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import { approveSignal, denySignal, submitToolResultSignal, subAgentWaitingSignal, type SubAgentWaitingReport } from '../common/definitions';
import type { PendingCall, RunStatus } from '../common/run';
import { nowIso } from './clock';
import { recordEvent } from './event-log';
import { allPending, ownPending } from './call-records';
import type { RunState } from './run-state';
import type { ToolCallRecord } from '../common/tool-call-record';
import { setStatus, setStep } from './status';
import { waitingCallDetails } from './waiting-details';

/**
 * Approvals bubble up: a sub-agent run reports to its parent whatever it and its own sub-agents
 * wait for, the parent shows those calls as its own (state, status, events, Web UI) and passes
 * answers sent to it down to the run that holds the call.
 */

const WAITING_STATUSES: ReadonlySet<RunStatus> = new Set(['running', 'awaiting_approval', 'awaiting_external']);

type SubAgentRecord = ToolCallRecord & { phase: Extract<ToolCallRecord['phase'], { name: 'in_sub_agent' }> };

function subAgentRecords(state: RunState): SubAgentRecord[] {
  return state.calls.filter((record): record is SubAgentRecord => record.phase.name === 'in_sub_agent');
}

function waitsInSubAgents(state: RunState): PendingCall[] {
  return subAgentRecords(state).flatMap((record) => record.phase.waiting);
}

/** Status and Web UI details follow what the sub-agents wait for, while the run has no waiting call of its own. */
export function showSubAgentWaits(state: RunState): void {
  if (ownPending(state).length > 0 || !WAITING_STATUSES.has(state.status)) return;
  const waiting = waitsInSubAgents(state);
  if (waiting.length === 0) {
    if (state.status !== 'running') {
      setStatus(state, 'running');
      setStep(state, `running sub-agent(s): ${subAgentRecords(state).map((record) => record.phase.workflowId).join(', ')}`);
    }
    return;
  }
  setStatus(state, waiting.some((call) => call.kind === 'approval') ? 'awaiting_approval' : 'awaiting_external');
  const lines = waiting.map((call) => waitingCallDetails(call, call.workflowId!, true));
  setStep(state, `waiting for ${waiting.length} call(s) in sub-agents`, lines.join('\n\n'));
}

/** The `subAgentWaiting` signal: only a sub-agent this run is waiting for may report. */
export function noteSubAgentWaiting(state: RunState, report: SubAgentWaitingReport): void {
  const record = subAgentRecords(state).find((candidate) => candidate.phase.workflowId === report.workflowId);
  if (!record) throw new Error(`'${report.workflowId}' is not a sub-agent run this run is waiting for`);
  record.phase = { ...record.phase, waiting: report.pending };
  const calls = report.pending.map((call) => ({ callId: call.callId, tool: call.tool, kind: call.kind, workflowId: call.workflowId ?? report.workflowId }));
  recordEvent(state, { type: 'subagent_waiting', workflowId: report.workflowId, agent: report.agent, calls }, nowIso());
  showSubAgentWaits(state);
}

/**
 * The sub-agent run (at any depth) that holds a waiting call, when it is not this run's own.
 * Sub-agents number their calls alike, so one id may wait in several: then the answer cannot be
 * passed on, and the sender is told to use the holding run's id.
 */
export function subAgentHolding(state: RunState, callId: string): PendingCall | undefined {
  if (ownPending(state).some((p) => p.callId === callId)) return undefined;
  const holders = waitsInSubAgents(state).filter((call) => call.callId === callId);
  if (holders.length > 1) {
    throw new Error(`tool call '${callId}' waits in ${holders.length} sub-agent runs (${holders.map((h) => h.workflowId).join(', ')}): answer it through the id of the run that holds it`);
  }
  return holders[0];
}

type Answer = { signal: 'approve' | 'deny' | 'submitToolResult'; request: { callId: string } & Record<string, unknown> };

/** A signal answering a sub-agent's call goes on to the run that holds it; its own checks apply there. */
export async function forwardToSubAgent(holder: PendingCall, answer: Answer): Promise<void> {
  const handle = getExternalWorkflowHandle(holder.workflowId!);
  const definition = answer.signal === 'approve' ? approveSignal : answer.signal === 'deny' ? denySignal : submitToolResultSignal;
  await handle.signal(definition as typeof approveSignal, answer.request as never);
}

/**
 * In a sub-agent run: on every change of what it (or its sub-agents) waits for, tell the parent.
 * Started only in runs with a parent, so top-level runs' histories are untouched.
 */
export function reportWaitsToParent(state: RunState): void {
  const parent = state.parent;
  if (!parent) return;
  const self = workflowInfo().workflowId;
  const key = () => allPending(state).map((call) => `${call.workflowId ?? self}/${call.callId}`).join(',');
  let reported = '';
  // Outside the run's cancellation: a cancelled run still reports that nothing waits any more.
  void CancellationScope.nonCancellable(async () => {
    for (;;) {
      await condition(() => key() !== reported);
      reported = key();
      const pending = allPending(state).map((call) => ({ ...call, workflowId: call.workflowId ?? self, agent: call.agent ?? state.agent }));
      try {
        await getExternalWorkflowHandle(parent.workflowId).signal(subAgentWaitingSignal, { workflowId: self, agent: state.agent, pending });
      } catch (error) {
        log.warn('Could not tell the parent run what this run waits for', { parent: parent.workflowId, error: (error as Error).message });
      }
    }
  });
}
