import type { AgentRun } from '../client/agent-run';
import type { AnswerRequest, BoundTo } from './answer-form';
import { isClosedRunError } from '../client/request-rejected';

export type AnswerOutcome = { ok: true; done: 'approved' | 'denied' | 'submitted' } | { ok: false; reason: string };

/** Sends the answer as `answeredBy`; the run's refusal (already answered, invalid edits) comes back as the reason. */
export async function sendAnswer(run: AgentRun, callId: string, request: AnswerRequest, answeredBy: string, bound: BoundTo = {}): Promise<AnswerOutcome> {
  try {
    switch (request.action) {
      case 'approve':
        await run.approve(callId, { ...(request.input !== undefined ? { input: request.input } : {}), remember: request.remember, answeredBy, ...bound });
        return { ok: true, done: 'approved' };
      case 'deny':
        await run.deny(callId, request.reason, { answeredBy, ...bound });
        return { ok: true, done: 'denied' };
      case 'submit':
        await run.submit(callId, request.output, { isError: request.isError, answeredBy });
        return { ok: true, done: 'submitted' };
    }
  } catch (error) {
    return { ok: false, reason: refusalText(error) };
  }
}

/** Why the answer was not taken, in the inbox's words rather than the server's. */
export function refusalText(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (isClosedRunError(error) || /not found/i.test(message)) {
    return 'The run has ended, so this call no longer waits: nothing was sent.';
  }
  return `The run refused the answer: ${message}`;
}
