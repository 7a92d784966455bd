import type { AgentEventBody } from '../../common/events';
import type { SubAgentWaitingReport } from '../../common/definitions';
import type { Writing } from '../state';
import { recordOf } from './book';
import type { CallChange } from './change';
import { move } from './phases';
import { subAgentRecords } from './views';

/** A call of an agent tool: its sub-agent run, and what that run waits for while it works. */

/** The agent tool's sub-agent run started, `depth` levels below the top-level run, on `task`. */
export function startSubAgent(state: Writing<'calls'>, callId: string, child: { workflowId: string; agent: string; depth: number; task: string }): CallChange {
  const record = recordOf(state, callId)!;
  const { workflowId, agent, depth, task } = child;
  move(record, 'enterSubAgent', { name: 'in_sub_agent', workflowId, agent, waiting: [] });
  return { events: [{ type: 'subagent_started', callId, workflowId, agent, tool: record.tool, depth, task }] };
}

/** The `subAgentWaiting` signal: only a sub-agent this run is waiting for may report. */
export function subAgentWaiting(state: Writing<'calls'>, report: SubAgentWaitingReport): CallChange {
  const record = subAgentRecords(state).find((candidate) => candidate.phase.workflowId === report.workflowId);
  if (!record) throw new Error(`'${report.workflowId}' is not a sub-agent run this run is waiting for`);
  move(record, 'subAgentWaits', { ...record.phase, waiting: report.pending });
  const calls = report.pending.map((call) => ({ callId: call.callId, tool: call.tool, kind: call.kind, workflowId: call.workflowId ?? report.workflowId }));
  return { events: [{ type: 'subagent_waiting', workflowId: report.workflowId, agent: report.agent, calls }], subAgentWaitsChanged: true };
}

/** How a sub-agent run ended, for its `subagent_finished` event. */
export type SubAgentEnd = Omit<Extract<AgentEventBody, { type: 'subagent_finished' }>, 'type' | 'callId'>;

/**
 * The sub-agent run ended (`end`: how; none when the parent itself is cancelled); if it had
 * reported waits, the run's status and details follow.
 */
export function leaveSubAgent(state: Writing<'calls'>, callId: string, end?: SubAgentEnd): CallChange {
  const record = recordOf(state, callId)!;
  const reported = record.phase.name === 'in_sub_agent' && record.phase.waiting.length > 0;
  move(record, 'leaveSubAgent', { name: 'running' });
  return {
    ...(end ? { events: [{ type: 'subagent_finished', callId, ...end }] } : {}),
    ...(reported ? { subAgentWaitsChanged: true } : {}),
  };
}
