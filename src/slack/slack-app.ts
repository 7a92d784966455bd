import { App, HTTPReceiver, LogLevel, type Logger, type webApi } from '@slack/bolt';
import type { AgentClient } from '../client/agent-client';
import { canonicalJson } from '../common/canonical-json';
import type { CallMessages } from './call-messages';
import { editModal, EDIT_CALLBACK, RAW_BLOCK, readEdit, refusalErrors } from './edit-modal';
import type { BlockActions, Interaction, ViewSubmission } from './interaction-payloads';
import { ACTIONS, answerText, callValue } from './message-blocks';
import { sendDecision } from './send-decision';
import type { SlackConfig } from './slack-config';
import { identityOf } from './slack-identity';

/** Where the endpoint leaves the interaction it parsed (request → Bolt's context, by customPropertiesExtractor). */
export const PARSED_INTERACTION = Symbol('durable-agent.slackInteraction');

export type SlackLog = (level: 'warn' | 'error', message: string) => void;

/** Bolt's logger, quiet but for warnings and errors, which go to `log` (Bolt never logs a secret; bodies only in developer mode, off). */
export function boltLogger(log: SlackLog): Logger {
  let level = LogLevel.WARN;
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...message: unknown[]) => log('warn', `slack: ${message.map(String).join(' ')}`),
    error: (...message: unknown[]) => log('error', `slack: ${message.map(String).join(' ')}`),
    setLevel: (next: LogLevel) => void (level = next),
    getLevel: () => level,
    setName: () => undefined,
  };
}

const NOT_MAPPED = 'Your Slack user is not mapped to an approver identity here, so nothing was sent. Ask an admin to add you to AGENT_SLACK_USERS.';

interface Parts {
  config: SlackConfig;
  client: AgentClient;
  slack: webApi.WebClient;
  messages: CallMessages;
  log: SlackLog;
}

/**
 * Bolt's App over an HTTPReceiver: the receiver checks each request's signature and its five-minute
 * window with the signing secret and acknowledges; the listeners below are the glue to the runs.
 */
export function createSlackApp(parts: Parts, interactionsPath: string): { app: App; receiver: HTTPReceiver } {
  const { config, log } = parts;
  const logger = boltLogger(log);
  const receiver = new HTTPReceiver({
    signingSecret: config.signingSecret,
    endpoints: [interactionsPath],
    logger,
    customPropertiesExtractor: (request) => ({ interaction: (request as unknown as Record<symbol, unknown>)[PARSED_INTERACTION] }),
  });
  const app = new App({
    receiver,
    logger,
    ignoreSelf: false,
    // Bolt's own client is not used (the endpoint's is), but points where the endpoint's does.
    ...(config.apiUrl ? { clientOptions: { slackApiUrl: config.apiUrl.endsWith('/') ? config.apiUrl : `${config.apiUrl}/` } } : {}),
    // The bot token is the endpoint's own: no installations, no auth.test round trip per request.
    authorize: async () => ({ botToken: config.botToken }),
  });
  const interactionOf = (context: Record<string, unknown>) => context.interaction as Interaction;

  app.action({ type: 'block_actions', action_id: new RegExp(`^(${Object.values(ACTIONS).join('|')})$`) }, async ({ ack, context }) => {
    await ack();
    const interaction = interactionOf(context) as BlockActions;
    await onButton(parts, interaction).catch((error: Error) => log('error', `slack: a button of ${interaction.actions[0]!.value.w} was not handled: ${error.message}`));
  });
  app.view({ callback_id: EDIT_CALLBACK, type: 'view_submission' }, async ({ ack, context }) => {
    const interaction = interactionOf(context) as ViewSubmission;
    const response = await onEditSubmitted(parts, interaction).catch((error: Error) => {
      log('error', `slack: an edit of ${interaction.view.private_metadata.c} was not handled: ${error.message}`);
      return { errors: { [Object.keys(interaction.view.state.values)[0] ?? RAW_BLOCK]: `Nothing was sent: ${error.message}` } };
    });
    if (response.errors) await ack({ response_action: 'errors', errors: response.errors });
    else await ack();
  });
  app.view({ callback_id: EDIT_CALLBACK, type: 'view_closed' }, async ({ ack }) => ack());
  return { app, receiver };
}

async function ephemeral(parts: Parts, interaction: BlockActions, text: string): Promise<void> {
  const channel = interaction.channel?.id ?? interaction.container?.channel_id ?? parts.config.channel;
  await parts.slack.chat.postEphemeral({ channel, user: interaction.user.id, text });
}

/** Approve, Deny or Edit, clicked. */
async function onButton(parts: Parts, interaction: BlockActions): Promise<void> {
  const action = interaction.actions[0]!;
  const { w: workflowId, c: callId } = action.value;
  const identity = await identityOf(interaction.user.id, parts.config, parts.slack);
  if (!identity) return ephemeral(parts, interaction, NOT_MAPPED);
  if (action.action_id === ACTIONS.edit) {
    const open = await parts.messages.openCall(workflowId, callId).catch(() => undefined);
    if (!open) return settled(parts, interaction, workflowId, callId, 'This call no longer waits: nothing was sent.');
    const metadata = JSON.stringify({ ...JSON.parse(callValue(workflowId, callId)), ...(interaction.container?.message_ts ? { ts: interaction.container.message_ts } : {}) });
    await parts.slack.views.open({ trigger_id: interaction.trigger_id, view: editModal(open.call.tool, open.schema, open.call.input, metadata) as unknown as webApi.ViewsOpenArguments['view'] });
    return;
  }
  const approved = action.action_id === ACTIONS.approve;
  const message = await parts.messages.ensurePosted(workflowId, callId);
  if (!message) return settled(parts, interaction, workflowId, callId, 'This call no longer waits: nothing was sent.');
  const outcome = await sendDecision(parts.client, workflowId, callId, { approved, answeredBy: identity, argumentsDigest: message.argumentsDigest,
    ...(message.rulesVersion ? { rulesVersion: message.rulesVersion } : {}) });
  if (!outcome.ok) return settled(parts, interaction, workflowId, callId, outcome.reason);
  await parts.messages.markAnswered(workflowId, callId, { outcome: approved ? 'approved' : 'denied', answeredBy: identity });
}

/** A refusal told to the one who clicked; the message is brought up to date when the call was answered meanwhile. */
async function settled(parts: Parts, interaction: BlockActions, workflowId: string, callId: string, reason: string): Promise<void> {
  await ephemeral(parts, interaction, reason);
  const answer = await parts.messages.recordedAnswer(workflowId, callId);
  if (answer) await parts.messages.markAnswered(workflowId, callId, answer);
}

/** The Edit modal submitted: checked like the inbox's form, then sent; a refusal (ours or the run's) is shown in the modal. */
async function onEditSubmitted(parts: Parts, interaction: ViewSubmission): Promise<{ errors?: Record<string, string> }> {
  const values = interaction.view.state.values;
  const firstBlock = Object.keys(values)[0] ?? '';
  const { w: workflowId, c: callId } = interaction.view.private_metadata;
  const identity = await identityOf(interaction.user.id, parts.config, parts.slack);
  if (!identity) return { errors: { [firstBlock]: NOT_MAPPED } };
  const open = await parts.messages.openCall(workflowId, callId).catch(() => undefined);
  if (!open) return { errors: { [firstBlock]: 'This call no longer waits: nothing was sent.' } };
  const read = readEdit(open.schema, values);
  if (!read.ok) return { errors: read.errors };
  const message = await parts.messages.ensurePosted(workflowId, callId, undefined, open);
  if (!message) return { errors: { [firstBlock]: 'This call no longer waits: nothing was sent.' } };
  const edited = canonicalJson(read.input) !== canonicalJson(open.call.input);
  const outcome = await sendDecision(parts.client, workflowId, callId, {
    approved: true,
    ...(edited ? { input: read.input as Record<string, unknown> } : {}),
    answeredBy: identity,
    argumentsDigest: message.argumentsDigest,
    ...(message.rulesVersion ? { rulesVersion: message.rulesVersion } : {}),
  });
  if (!outcome.ok) return { errors: refusalErrors(outcome.reason, Object.keys(values)) };
  // After the modal is answered (Slack waits 3 s at most for that): the message says who approved.
  void parts.messages.markAnswered(workflowId, callId, { outcome: 'approved', answeredBy: identity, edited }).catch((error: Error) => {
    parts.log('warn', `slack: the message of ${callId} was not updated (${error.message}); it was ${answerText({ outcome: 'approved', answeredBy: identity })}`);
  });
  return {};
}
