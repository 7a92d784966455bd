import type { PreparedCall } from '../../common/contracts/tool-calls';
import type { SubAgentWaitingReport } from '../../common/definitions';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { RunState } from '../state';
import { applyChange } from './apply-change';
import { checked } from './batch';
import { endBatch } from './book';
import { requestResult } from './external';
import { leaveSubAgent, subAgentWaiting } from './sub-agent-calls';

/** The transitions the loop drives whose changes have effects: each is applied as it happens. */

export function takeCheck(state: RunState, prepared: PreparedCall): void {
  applyChange(state, checked(state, prepared));
}

export function askForResult(state: RunState, callId: string, input: unknown, reason?: string): void {
  applyChange(state, requestResult(state, callId, input, reason));
}

export function noteSubAgentWaiting(state: RunState, report: SubAgentWaitingReport): void {
  applyChange(state, subAgentWaiting(state, report));
}

export function exitSubAgent(state: RunState, callId: string): void {
  applyChange(state, leaveSubAgent(state, callId));
}

export function finishBatch(state: RunState, batch: readonly ToolCallRecord[]): void {
  applyChange(state, endBatch(state, batch));
}
