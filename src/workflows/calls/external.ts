import type { ToolCallResult } from '../../common/contracts/tool-calls';
import type { SubmittedResult } from '../../common/run';
import type { ToolCallRecord } from '../../common/tool-call-record';
import { nowIso } from '../platform';
import { preview } from '../effects';
import type { Writing } from '../state';
import { recordOf } from './book';
import type { CallChange } from './change';
import { answeredNotice, waitingNotice } from './notices';
import { move, writable } from './phases';

/** The external half of a call's lifecycle: its result asked for, waited for, submitted (or not in time). */

/** The call waits for a result from outside, announced as soon as that is known so the outside can start on it. */
export function requestResult(state: Writing<'calls'>, callId: string, input: unknown, reason?: string): CallChange {
  const record = recordOf(state, callId);
  if (!record || record.phase.name === 'awaiting_external') return {};
  const target = move(record, 'awaitResult', { name: 'awaiting_external', ...(reason ? { reason } : {}) });
  Object.assign(target, { input, externalAt: nowIso() });
  return { events: [{ type: 'external_requested', callId, tool: record.tool, input, ...(reason ? { reason } : {}) }] };
}

/** Its turn came and no result is there yet: the run waits for it. */
export function resultWaitStarts(record: ToolCallRecord): CallChange {
  return { notices: [waitingNotice(record, 'external', record.input)], status: 'awaiting_external', waitsChanged: true, noticesFirstInOlderRuns: true };
}

/** A submitted result, kept on the call's record; its wait (now or when its turn comes) takes it. */
export function submit(record: ToolCallRecord, submission: SubmittedResult): CallChange {
  writable(record).submission = submission;
  return record.phase.name === 'awaiting_external' ? { waitsChanged: true } : {};
}

/** The wait ended, with the submitted result or without one in time: the call is settled with it. */
export function endResultWait(state: Writing<'calls'>, record: ToolCallRecord, waited: boolean): { result: ToolCallResult; change: CallChange } {
  const timeout = state.descriptor.externalTimeout;
  const submission = record.submission;
  const result: ToolCallResult = submission
    ? { content: submission.output, state: submission.isError ? 'error' : 'success' }
    : { content: `Error: No external result for '${record.tool}' arrived within ${timeout}.`, state: 'error' };
  move(record, 'settle', { name: 'settled', state: result.state });
  const answeredBy = submission?.answeredBy !== undefined ? { answeredBy: submission.answeredBy } : {};
  return {
    result,
    change: {
      events: [{ type: 'external_submitted', callId: record.callId, tool: record.tool, isError: result.state === 'error', preview: preview(result.content), ...answeredBy }],
      status: 'running',
      waitsChanged: true,
      ...(waited ? { notices: [answeredNotice(record, 'external', { outcome: submission ? 'submitted' : 'timed_out', ...answeredBy })] } : {}),
    },
  };
}
