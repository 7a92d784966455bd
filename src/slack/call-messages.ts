import type { webApi } from '@slack/bolt';
import type { AgentClient } from '../client/agent-client';
import { argumentsDigest } from '../common/arguments-digest';
import type { WaitingCall } from '../common/contracts/published-waits';
import type { JsonSchema } from '../common/tools';
import { answerOf } from '../inbox/call-answers';
import { openCallOf } from '../inbox/inbox-calls';
import { answeredMessage, threadText, waitingMessage } from './message-blocks';
import type { CallMessage, MessageStore } from './message-store';
import type { ReceivedNotice } from './received-notice';

/** How long one read of a run may take before the endpoint gives up on it (and the worker retries the notice). */
const READ_TIMEOUT_MS = 10_000;
/** Pages of waiting runs read per catch-up. */
const CATCH_UP_PAGES = 20;

export interface SlackAnswer {
  outcome: string;
  answeredBy?: string;
  edited?: boolean;
  at?: string;
}

export interface OpenSlackCall {
  call: WaitingCall;
  schema?: JsonSchema;
}

/**
 * The Slack message of each waiting call: posted once when the call waits, updated once it is
 * answered (here or anywhere else), with reminders, escalations and delegations in its thread.
 * Notices only say which call to look at: what a message shows is read from the run that holds
 * the call, so a notice delivered twice, late or out of order changes nothing it should not.
 */
export class CallMessages {
  constructor(
    private readonly client: AgentClient,
    private readonly slack: webApi.WebClient,
    private readonly store: MessageStore,
    private readonly channel: string,
    private readonly scope?: string,
  ) {}

  private bounded<T>(read: () => Promise<T>): Promise<T> {
    return this.client.client.withDeadline(Date.now() + READ_TIMEOUT_MS, read);
  }

  /** The call as its holder run shows it waiting (its arguments and schema); undefined once it no longer waits. */
  async openCall(workflowId: string, callId: string): Promise<OpenSlackCall | undefined> {
    const state = await this.bounded(() => this.client.get(workflowId).state());
    return openCallOf(workflowId, state, callId);
  }

  /** How the call was answered, as the holder run's events record it. */
  async recordedAnswer(workflowId: string, callId: string): Promise<SlackAnswer | undefined> {
    const events = await this.bounded(() => this.client.get(workflowId).eventsAfter(0)).catch(() => undefined);
    const answer = events ? answerOf(events, callId) : undefined;
    if (!answer) return undefined;
    return { outcome: answer.outcome, ...(answer.answeredBy ? { answeredBy: answer.answeredBy } : {}), ...(answer.editedInput !== undefined ? { edited: true } : {}), at: answer.at };
  }

  message(workflowId: string, callId: string): CallMessage | undefined {
    return this.store.get(workflowId, callId);
  }

  /** A notice of the worker, acted on: throws when Slack or the run could not be reached, so the worker delivers it again. */
  async onNotice(notice: ReceivedNotice): Promise<'posted' | 'updated' | 'threaded' | 'ignored'> {
    if (notice.kind !== 'approval') return 'ignored';
    if (notice.event === 'answered') {
      const answer = (await this.recordedAnswer(notice.workflowId, notice.callId)) ?? {
        outcome: notice.outcome ?? 'ended',
        ...(notice.answeredBy ? { answeredBy: notice.answeredBy } : {}),
      };
      return (await this.markAnswered(notice.workflowId, notice.callId, answer)) ? 'updated' : 'ignored';
    }
    const message = await this.ensurePosted(notice.workflowId, notice.callId, notice.approvers);
    if (!message) return 'ignored';
    if (notice.event === 'waiting') return 'posted';
    return (await this.postToThread(message, notice)) ? 'threaded' : 'ignored';
  }

  /** The call's message, posted now when it has none and the call still waits. */
  ensurePosted(workflowId: string, callId: string, approvers?: string[], known?: OpenSlackCall): Promise<CallMessage | undefined> {
    return this.store.exclusive(workflowId, callId, async () => {
      const kept = this.store.get(workflowId, callId);
      if (kept) return kept;
      const open = known ?? (await this.openCall(workflowId, callId));
      if (!open || open.call.kind !== 'approval') return undefined;
      const input = open.call.input;
      const posted = await this.slack.chat.postMessage({ channel: this.channel, ...waitingMessage(open.call, input, approvers ?? open.call.approvers) } as webApi.ChatPostMessageArguments);
      if (!posted.ok || !posted.ts) throw new Error(`chat.postMessage answered ${posted.error ?? 'without a ts'}`);
      const message: CallMessage = {
        workflowId,
        callId,
        tool: open.call.tool,
        agent: open.call.agent,
        channel: posted.channel ?? this.channel,
        ts: posted.ts,
        // The arguments the message shows, digested here: what the person saw is what the answer is bound to.
        argumentsDigest: argumentsDigest(input),
        ...(open.call.rulesVersion ? { rulesVersion: open.call.rulesVersion } : {}),
        postedAt: new Date().toISOString(),
        threaded: [],
      };
      await this.store.put(message);
      return message;
    });
  }

  /** The message rewritten to say how the call was answered (once); false when there is no message or it says so already. */
  markAnswered(workflowId: string, callId: string, answer: SlackAnswer): Promise<boolean> {
    return this.store.exclusive(workflowId, callId, async () => {
      const message = this.store.get(workflowId, callId);
      if (!message || message.answered) return false;
      await this.slack.chat.update({ channel: message.channel, ts: message.ts, ...answeredMessage(message, answer) } as webApi.ChatUpdateArguments);
      await this.store.put({ ...message, answered: { outcome: answer.outcome, ...(answer.answeredBy ? { answeredBy: answer.answeredBy } : {}), at: answer.at ?? new Date().toISOString() } });
      return true;
    });
  }

  private postToThread(message: CallMessage, notice: ReceivedNotice): Promise<boolean> {
    return this.store.exclusive(message.workflowId, message.callId, async () => {
      const current = this.store.get(message.workflowId, message.callId) ?? message;
      const mark = `${notice.event}@${notice.at}`;
      if (current.threaded.includes(mark)) return false;
      await this.slack.chat.postMessage({ channel: current.channel, thread_ts: current.ts, text: threadText(notice) });
      await this.store.put({ ...current, threaded: [...current.threaded, mark].slice(-500) });
      return true;
    });
  }

  /**
   * Catching up, at start and now and then: every message still shown as waiting whose call was
   * answered meanwhile (a notice lost while the endpoint was down) is updated, and every approval
   * that waits without a message gets one. A run that cannot be read now is tried next time.
   */
  async reconcile(): Promise<{ updated: number; posted: number }> {
    let updated = 0;
    let posted = 0;
    for (const message of this.store.open()) {
      const open = await this.openCall(message.workflowId, message.callId).then(
        (call) => ({ read: true as const, call }),
        (error: Error) => ({ read: /not found/i.test(error.message), call: undefined }),
      );
      if (!open.read || open.call) continue;
      const answer = (await this.recordedAnswer(message.workflowId, message.callId)) ?? { outcome: 'ended' };
      if (await this.markAnswered(message.workflowId, message.callId, answer).catch(() => false)) updated += 1;
    }
    let pageToken: string | undefined;
    for (let page = 0; page < CATCH_UP_PAGES; page += 1) {
      const waiting = await this.client.waitingCalls({ pageSize: 100, ...(this.scope ? { query: this.scope } : {}), ...(pageToken ? { pageToken } : {}) });
      for (const call of waiting.calls) {
        if (call.kind !== 'approval' || this.store.get(call.workflowId, call.callId)) continue;
        if (await this.ensurePosted(call.workflowId, call.callId).catch(() => undefined)) posted += 1;
      }
      pageToken = waiting.nextPageToken;
      if (!pageToken) break;
    }
    return { updated, posted };
  }
}
