import type { PreparedCall, ToolCallResult } from '../../common/contracts/tool-calls';
import type { SubAgentWaitingReport } from '../../common/definitions';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { Writing } from '../state';
import { applyChange } from './apply-change';
import type { ToolCall } from '../../common/messages';
import { checked, settle, startChecking, startRunning } from './batch';
import { endBatch } from './book';
import { requestResult } from './external';
import { leaveSubAgent, startSubAgent, subAgentWaiting, type SubAgentEnd } from './sub-agent-calls';

/** The transitions the loop drives whose changes have effects: each is applied as it happens. */

export function beginChecks(state: Writing<'calls'>, calls: readonly ToolCall[], runsToo: boolean): void {
  applyChange(state, startChecking(state, calls, runsToo));
}

export function beginRun(state: Writing<'calls'>, callId: string, input: unknown): void {
  applyChange(state, startRunning(state, callId, input));
}

export function settleCall(state: Writing<'calls'>, callId: string, result: ToolCallResult): void {
  applyChange(state, settle(state, callId, result));
}

export function enterSubAgent(state: Writing<'calls'>, callId: string, child: Parameters<typeof startSubAgent>[2]): void {
  applyChange(state, startSubAgent(state, callId, child));
}

export function takeCheck(state: Writing<'calls'>, prepared: PreparedCall): void {
  applyChange(state, checked(state, prepared));
}

export function askForResult(state: Writing<'calls'>, callId: string, input: unknown, reason?: string): void {
  applyChange(state, requestResult(state, callId, input, reason));
}

export function noteSubAgentWaiting(state: Writing<'calls'>, report: SubAgentWaitingReport): void {
  applyChange(state, subAgentWaiting(state, report));
}

export function exitSubAgent(state: Writing<'calls'>, callId: string, end?: SubAgentEnd): void {
  applyChange(state, leaveSubAgent(state, callId, end));
}

export function finishBatch(state: Writing<'calls'>, batch: readonly ToolCallRecord[]): void {
  applyChange(state, endBatch(state, batch));
}
