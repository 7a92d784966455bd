import { CancellationScope, condition, getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import { approveSignal, denySignal, submitToolResultSignal, subAgentWaitingSignal, type SubAgentWaitingReport } from '../common/definitions';
import type { PendingCall, RunStatus } from '../common/run';
import { nowIso } from './clock';
import { recordEvent } from './event-log';
import { allPending, type RunState } from './run-state';
import { setStatus, setStep } from './status';

/**
 * Approvals bubble up: a sub-agent run reports to its parent whatever it and its own sub-agents
 * wait for, the parent shows those calls as its own (state, status, events, Web UI) and passes
 * answers sent to it down to the run that holds the call.
 */

const WAITING_STATUSES: ReadonlySet<RunStatus> = new Set(['running', 'awaiting_approval', 'awaiting_external']);

function waitsInSubAgents(state: RunState): PendingCall[] {
  return Object.values(state.subAgentPending).flat();
}

/** Status and Web UI details follow what the sub-agents wait for, while the run has no waiting call of its own. */
export function showSubAgentWaits(state: RunState): void {
  if (state.pending.length > 0 || !WAITING_STATUSES.has(state.status)) return;
  const waiting = waitsInSubAgents(state);
  if (waiting.length === 0) {
    if (state.status !== 'running') {
      setStatus(state, 'running');
      setStep(state, `running sub-agent(s): ${state.runningSubAgents.join(', ')}`);
    }
    return;
  }
  setStatus(state, waiting.some((call) => call.kind === 'approval') ? 'awaiting_approval' : 'awaiting_external');
  const lines = waiting.map((call) =>
    call.kind === 'approval'
      ? `- in sub-agent **${call.agent}** (\`${call.workflowId}\`): \`${call.tool}\` ${JSON.stringify(call.input)} — ${call.decision?.reason ?? ''}\n` +
        `  approve: \`durable-agent approve ${call.workflowId} ${call.callId}\`\n` +
        `  deny: \`durable-agent deny ${call.workflowId} ${call.callId} --reason "..."\`\n` +
        `  Web UI: Send Signal \`approve\` with \`${JSON.stringify({ callId: call.callId })}\` here or on the sub-agent's run`
      : `- in sub-agent **${call.agent}** (\`${call.workflowId}\`): external \`${call.tool}\`\n  submit: \`durable-agent submit ${call.workflowId} ${call.callId} --output TEXT\``,
  );
  setStep(state, `waiting for ${waiting.length} call(s) in sub-agents`, lines.join('\n'));
}

/** The `subAgentWaiting` signal: only a sub-agent this run is waiting for may report. */
export function noteSubAgentWaiting(state: RunState, report: SubAgentWaitingReport): void {
  if (!state.runningSubAgents.includes(report.workflowId)) {
    throw new Error(`'${report.workflowId}' is not a sub-agent run this run is waiting for`);
  }
  if (report.pending.length === 0) delete state.subAgentPending[report.workflowId];
  else state.subAgentPending[report.workflowId] = report.pending;
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
  if (state.pending.some((p) => p.callId === callId)) return undefined;
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
