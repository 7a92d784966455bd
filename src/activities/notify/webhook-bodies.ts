import type { WaitNotice } from '../../common/contracts/wait-notice';
import type { Webhook } from './webhook-config';
import { BUDGET_TOOL } from '../../common/budget';
import { approversText } from '../../common/approvals';

/** The inbox page of one waiting call (answers go through the run that holds it). */
export function inboxLink(inboxUrl: string | undefined, notice: WaitNotice): string | undefined {
  if (!inboxUrl) return undefined;
  return `${inboxUrl.replace(/\/$/, '')}/calls/${encodeURIComponent(notice.workflowId)}/${encodeURIComponent(notice.callId)}`;
}

/** The generic body: the notice itself, without arguments unless the webhook asks for them. */
export function jsonBody(notice: WaitNotice, webhook: Webhook, link: string | undefined): Record<string, unknown> {
  const { input, ...rest } = notice;
  return { type: `call.${notice.event}`, ...rest, ...(webhook.includeArguments && input !== undefined ? { input } : {}), ...(link ? { link } : {}) };
}

function sentence(notice: WaitNotice): string {
  const what =
    notice.tool === BUDGET_TOOL ? 'more budget' : notice.kind === 'approval' ? `approval of \`${notice.tool}\`` : `the external result of \`${notice.tool}\``;
  const where = `(run ${notice.workflowId}, call ${notice.callId})`;
  const who = notice.approvers?.length ? approversText(notice.approvers) : undefined;
  if (notice.event === 'waiting') {
    return `Agent *${notice.agent}* waits for ${what} ${where}${notice.reason ? `: ${notice.reason}` : ''}.${who ? ` It may be answered by ${who}.` : ''}`;
  }
  if (notice.event === 'reminded') {
    return `Reminder${notice.reminder && notice.reminder > 1 ? ` ${notice.reminder}` : ''}: agent *${notice.agent}* still waits for ${what} ${where}${who ? `, to be answered by ${who}` : ''}.`;
  }
  if (notice.event === 'escalated') return `Escalated${who ? ` to ${who}` : ''}: agent *${notice.agent}* still waits for ${what} ${where}; nobody answered in time.`;
  if (notice.event === 'delegated') return `${notice.delegatedBy ?? 'An approver'} handed ${what} of agent *${notice.agent}* ${where} to ${who ?? 'others'}.`;
  const by = notice.answeredBy ? ` by ${notice.answeredBy}` : '';
  return `${notice.outcome === 'timed_out' ? 'No answer came in time for' : `${notice.outcome ?? 'answered'}${by}:`} ${what} of agent *${notice.agent}* (run ${notice.workflowId}, call ${notice.callId}).`;
}

/** A Slack incoming-webhook body: the same facts as text, with a button to the inbox when it has a URL. */
export function slackBody(notice: WaitNotice, webhook: Webhook, link: string | undefined): Record<string, unknown> {
  const text = sentence(notice);
  const args = webhook.includeArguments && notice.input !== undefined ? `\n\`\`\`${JSON.stringify(notice.input)}\`\`\`` : '';
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: `${text}${args}` } }];
  if (link && notice.event !== 'answered') {
    blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the inbox' }, url: link }] });
  }
  return { text, blocks };
}
