import type { WaitingCall } from '../common/contracts/published-waits';
import type { ReceivedNotice } from './received-notice';

/** The buttons' action ids; each button's value is the call's address (callValue). */
export const ACTIONS = { approve: 'durable_agent_approve', deny: 'durable_agent_deny', edit: 'durable_agent_edit' } as const;

/** Slack's limit on a section's text is 3,000 characters; the arguments are cut well below it. */
const ARGUMENTS_CHARS = 2_500;

/** The call a button or a modal is for, as its value carries it. */
export function callValue(workflowId: string, callId: string): string {
  return JSON.stringify({ w: workflowId, c: callId });
}

/** Slack's mrkdwn escapes: &, < and > (the rest is shown as typed). */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function argumentsText(input: unknown): string {
  const json = JSON.stringify(input, null, 2) ?? 'none';
  const shown = json.length > ARGUMENTS_CHARS ? `${json.slice(0, ARGUMENTS_CHARS)}\n… (${json.length - ARGUMENTS_CHARS} more characters: see the inbox)` : json;
  return '```' + escapeText(shown.replace(/```/g, '`\u200b``')) + '```';
}

function headline(call: Pick<WaitingCall, 'agent' | 'tool'>): string {
  return `Agent *${escapeText(call.agent)}* asks to run \`${escapeText(call.tool)}\``;
}

function runLine(call: Pick<WaitingCall, 'workflowId' | 'callId'>): unknown {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: `run \`${escapeText(call.workflowId)}\` · call \`${escapeText(call.callId)}\`` }] };
}

/** The message of a call that waits: what it is, why it asks, its arguments, and the three buttons. */
export function waitingMessage(call: WaitingCall, input: unknown, approvers?: string[]): { text: string; blocks: unknown[] } {
  const value = callValue(call.workflowId, call.callId);
  const button = (text: string, action_id: string, style?: 'primary' | 'danger') => ({ type: 'button', text: { type: 'plain_text', text }, action_id, value, ...(style ? { style } : {}) });
  const why = call.reason ? `\n${escapeText(call.reason)}` : '';
  const who = approvers && approvers.length > 0 ? `\nApprovers: ${approvers.map(escapeText).join(', ')}` : '';
  return {
    text: `${call.agent} asks to run ${call.tool}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `${headline(call)}${why}${who}` } },
      { type: 'section', text: { type: 'mrkdwn', text: argumentsText(input) } },
      runLine(call),
      { type: 'actions', block_id: 'durable_agent_answer', elements: [button('Approve', ACTIONS.approve, 'primary'), button('Deny', ACTIONS.deny, 'danger'), button('Edit', ACTIONS.edit)] },
    ],
  };
}

const OUTCOME_TEXT: Record<string, string> = {
  approved: 'Approved',
  denied: 'Denied',
  timed_out: 'No answer in time',
  submitted: 'Result submitted',
  ended: 'No longer waits (the run went on or ended)',
};

/** How the call was answered, in words: "Approved by alice@example.com (with edited arguments)". */
export function answerText(answer: { outcome: string; answeredBy?: string; edited?: boolean }): string {
  const by = answer.answeredBy ? ` by ${answer.answeredBy}` : '';
  return `${OUTCOME_TEXT[answer.outcome] ?? answer.outcome}${by}${answer.edited ? ' (with edited arguments)' : ''}`;
}

/** The message once the call is answered, wherever: the same facts, the buttons replaced by who answered and how. */
export function answeredMessage(call: Pick<WaitingCall, 'agent' | 'tool' | 'workflowId' | 'callId'>, answer: { outcome: string; answeredBy?: string; edited?: boolean }): { text: string; blocks: unknown[] } {
  const said = answerText(answer);
  const mark = answer.outcome === 'approved' ? ':white_check_mark:' : answer.outcome === 'denied' ? ':no_entry:' : ':hourglass:';
  return {
    text: `${call.agent}: ${call.tool}: ${said}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: headline(call) } },
      runLine(call),
      { type: 'section', text: { type: 'mrkdwn', text: `${mark} *${escapeText(said)}*` } },
    ],
  };
}

/** A reminder, an escalation or a delegation, as its line in the message's thread. */
export function threadText(notice: ReceivedNotice): string {
  const to = notice.approvers && notice.approvers.length > 0 ? notice.approvers.join(', ') : undefined;
  switch (notice.event) {
    case 'reminded':
      return `:bell: Reminder${notice.reminder ? ` ${notice.reminder}` : ''}: \`${notice.tool}\` still waits for an answer.${to ? ` Approvers: ${to}.` : ''}`;
    case 'escalated':
      return `:rotating_light: Escalated${to ? ` to ${to}` : ''}: \`${notice.tool}\` has waited too long.`;
    case 'delegated':
      return `:arrow_right: Handed on${notice.delegatedBy ? ` by ${notice.delegatedBy}` : ''}${to ? ` to ${to}` : ''}.`;
    default:
      return `${notice.event}: \`${notice.tool}\``;
  }
}
