import type { SubAgentWaitingReport } from '../../common/definitions';
import type { RunState } from '../state';
import { recordOf } from './book';
import type { CallChange } from './change';
import { move } from './phases';
import { subAgentRecords } from './views';

/** A call of an agent tool: its sub-agent run, and what that run waits for while it works. */

export function enterSubAgent(state: RunState, callId: string, workflowId: string, agent: string): void {
  move(recordOf(state, callId)!, 'enterSubAgent', { name: 'in_sub_agent', workflowId, agent, waiting: [] });
}

/** The `subAgentWaiting` signal: only a sub-agent this run is waiting for may report. */
export function subAgentWaiting(state: RunState, report: SubAgentWaitingReport): CallChange {
  const record = subAgentRecords(state).find((candidate) => candidate.phase.workflowId === report.workflowId);
  if (!record) throw new Error(`'${report.workflowId}' is not a sub-agent run this run is waiting for`);
  move(record, 'subAgentWaits', { ...record.phase, waiting: report.pending });
  const calls = report.pending.map((call) => ({ callId: call.callId, tool: call.tool, kind: call.kind, workflowId: call.workflowId ?? report.workflowId }));
  return { events: [{ type: 'subagent_waiting', workflowId: report.workflowId, agent: report.agent, calls }], subAgentWaitsChanged: true };
}

/** The sub-agent run ended; if it had reported waits, the run's status and details follow. */
export function leaveSubAgent(state: RunState, callId: string): CallChange {
  const record = recordOf(state, callId)!;
  const reported = record.phase.name === 'in_sub_agent' && record.phase.waiting.length > 0;
  move(record, 'leaveSubAgent', { name: 'running' });
  return reported ? { subAgentWaitsChanged: true } : {};
}
