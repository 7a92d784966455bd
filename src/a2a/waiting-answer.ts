import type { Part } from '@a2a-js/sdk';
import { z } from 'zod';
import type { PendingCall } from '../common/run';
import { textOfParts } from './a2a-parts';

/**
 * How a client answers a task in `input-required`: one answer per message, for the call it names
 * (`callId`) or else the one that has waited longest.
 * - an approval: a data part `{ "approve": true }` or `{ "deny": "reason" }` (`deny: true` without
 *   a reason), or the text `approve` or `deny` / `deny: reason`;
 * - an external tool's result: a data part `{ "result": "text", "isError"?: true }`.
 * Anything else is refused with a message saying what the task waits for, and changes nothing.
 */
export type WaitingAnswer =
  | { kind: 'approve'; callId?: string }
  | { kind: 'deny'; reason?: string; callId?: string }
  | { kind: 'result'; output: string; isError: boolean; callId?: string };

const callId = z.string().min(1).max(200).optional();

const dataAnswer = z.union([
  z.object({ approve: z.literal(true), callId }).strict(),
  z.object({ deny: z.union([z.literal(true), z.string().trim().min(1).max(2_000)]), callId }).strict(),
  z.object({ result: z.string().max(1_000_000), isError: z.boolean().optional(), callId }).strict(),
]);

const TEXT_ANSWER = /^\s*(approve|approved|deny|denied)\s*(?::\s*([\s\S]*\S))?\s*$/i;

/** The answer a message carries, or why it is none (in words for the client). */
export function readWaitingAnswer(parts: readonly Part[]): { answer: WaitingAnswer } | { problem: string } {
  const data = parts.filter((part) => part.content?.$case === 'data');
  if (data.length > 1) return { problem: 'the message holds more than one data part; send one answer per message' };
  if (data.length === 1) {
    const parsed = dataAnswer.safeParse(data[0]!.content!.value);
    if (!parsed.success) return { problem: 'its data part is not { "approve": true }, { "deny": "reason" } or { "result": "..." } (with an optional "callId")' };
    const value = parsed.data;
    const id = value.callId !== undefined ? { callId: value.callId } : {};
    if ('approve' in value) return { answer: { kind: 'approve', ...id } };
    if ('deny' in value) return { answer: { kind: 'deny', ...(typeof value.deny === 'string' ? { reason: value.deny } : {}), ...id } };
    return { answer: { kind: 'result', output: value.result, isError: value.isError === true, ...id } };
  }
  const match = TEXT_ANSWER.exec(textOfParts(parts));
  if (!match) return { problem: 'its text is neither "approve" nor "deny" / "deny: reason"' };
  const verb = match[1]!.toLowerCase();
  if (verb.startsWith('approve')) return match[2] ? { problem: '"approve" takes no reason; send just "approve"' } : { answer: { kind: 'approve' } };
  return { answer: { kind: 'deny', ...(match[2] ? { reason: match[2] } : {}) } };
}

/** The call an answer is for: the one it names, else the one waiting longest; or why there is none. */
export function callAnswered(pending: readonly PendingCall[], answer: WaitingAnswer): { call: PendingCall } | { problem: string } {
  const call = answer.callId !== undefined ? pending.find((candidate) => candidate.callId === answer.callId) : pending[0];
  if (!call) return { problem: `no call '${answer.callId}' waits` };
  const wanted = call.kind === 'approval' ? 'approve or deny' : 'result';
  if ((answer.kind === 'result') !== (call.kind === 'external')) return { problem: `the call ${call.callId} (${call.tool}) waits for ${call.kind === 'approval' ? 'an approval' : 'a result'}: send ${wanted}` };
  return { call };
}

/** What a task in `input-required` says: each waiting call, its arguments, and how to answer. */
export function waitingText(pending: readonly PendingCall[]): string {
  const lines = pending.map((call) => {
    const args = JSON.stringify(call.input);
    return call.kind === 'approval'
      ? `Waiting for approval: ${call.tool} ${args}${call.decision?.reason ? ` (${call.decision.reason})` : ''} [callId ${call.callId}].`
      : `Waiting for the result of the external tool ${call.tool} ${args} [callId ${call.callId}].`;
  });
  const approvals = pending.some((call) => call.kind === 'approval');
  const externals = pending.some((call) => call.kind === 'external');
  const how = [
    ...(approvals ? ['reply "approve" or "deny: reason" (or a data part { "approve": true } / { "deny": "reason" })'] : []),
    ...(externals ? ['reply with a data part { "result": "..." }'] : []),
  ];
  return `${lines.join('\n')}\nTo answer, ${how.join('; ')}; add "callId" to a data part to answer another call than the first.`;
}
