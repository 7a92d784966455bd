import { createHmac } from 'node:crypto';

/** The headers Slack sends with a request: v0 HMAC-SHA256 of `v0:{timestamp}:{body}` under the signing secret. */
export function slackSignature(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'X-Slack-Signature': signature, 'X-Slack-Request-Timestamp': String(timestamp) };
}

/** An interaction's body as Slack posts it: form-encoded, the payload as JSON. */
export function interactionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface ClickOptions {
  user: string;
  action: 'durable_agent_approve' | 'durable_agent_deny' | 'durable_agent_edit';
  workflowId: string;
  callId: string;
  channel: string;
  ts: string;
}

/** A block_actions payload: a button of the call's message clicked. */
export function clickPayload(options: ClickOptions): Record<string, unknown> {
  return {
    type: 'block_actions',
    team: { id: 'T0TEST', domain: 'test' },
    user: { id: options.user, username: options.user.toLowerCase(), team_id: 'T0TEST' },
    api_app_id: 'A0TEST',
    token: 'legacy-verification-token',
    trigger_id: `trigger-${options.user}-${Date.now()}`,
    container: { type: 'message', message_ts: options.ts, channel_id: options.channel, is_ephemeral: false },
    channel: { id: options.channel, name: 'approvals' },
    message: { type: 'message', ts: options.ts, text: 'waits' },
    response_url: 'https://hooks.slack.invalid/actions/1',
    actions: [{ type: 'button', block_id: 'durable_agent_answer', action_id: options.action, value: JSON.stringify({ w: options.workflowId, c: options.callId }), action_ts: String(Date.now() / 1000) }],
  };
}

/** A view_submission payload of the Edit modal `view` (as views.open was given it), with `values` by block id. */
export function submissionPayload(user: string, view: Record<string, any>, values: Record<string, string>): Record<string, unknown> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of view.blocks as Array<Record<string, any>>) {
    if (block.type !== 'input') continue;
    const text = values[block.block_id as string];
    const element = block.element as Record<string, any>;
    state[block.block_id as string] = {
      value:
        element.type === 'static_select'
          ? { type: 'static_select', selected_option: text === undefined ? element.initial_option ?? null : { text: { type: 'plain_text', text }, value: text } }
          : { type: element.type, value: text ?? element.initial_value ?? null },
    };
  }
  return {
    type: 'view_submission',
    team: { id: 'T0TEST', domain: 'test' },
    user: { id: user, username: user.toLowerCase(), team_id: 'T0TEST' },
    api_app_id: 'A0TEST',
    token: 'legacy-verification-token',
    trigger_id: `trigger-${Date.now()}`,
    view: { id: 'V0EDIT', team_id: 'T0TEST', type: 'modal', callback_id: view.callback_id, private_metadata: view.private_metadata, blocks: view.blocks, state: { values: state }, hash: 'h', app_id: 'A0TEST' },
  };
}
