import type { ModelSettings } from '../agent';
import type { QuotaGrant } from '../model-limits';
import type { AttemptBudget, AttemptHeartbeat } from './attempt-budget';
import type { ConversationWindow } from '../memory';
import type { AssistantMessage, Message, TokenUsage } from '../messages';
import type { ReferencingDelta } from './tool-result-references';
import type { LiveDelta } from './live-deltas';

/** The model call: what the workflow schedules, what the activity answers, what it heartbeats, and the model client it uses. */

export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A JSON-schema response format: the reply's text is to be one JSON value of this schema. */
export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
}

export interface CallModelInput {
  agent: string;
  model: string;
  settings: ModelSettings;
  messages: Message[];
  tools: ModelToolDefinition[];
  /** Set for an agent with a typed answer asked through the response format. */
  responseFormat?: ResponseFormat;
  iteration: number;
  /** The call's own attempts (see AttemptBudget); absent in calls scheduled before it existed. */
  budget?: AttemptBudget;
}

/**
 * What the workflow schedules: a reference to the conversation instead of the conversation, so
 * history grows with each message once, not with every model call.
 */
export interface CallModelRequest extends Omit<CallModelInput, 'messages'> {
  conversation: {
    /** The model gets the first `messageCount` messages of the run's conversation. */
    messageCount: number;
    /** Joined to the system message for this call only (e.g. the active tool groups). */
    systemAddition?: string;
    /**
     * The conversation's identity across continue-as-new (the chain's first run id): the key of the
     * worker's conversation cache. Absent in calls scheduled before the cache existed.
     */
    id?: string;
    /** With a context budget: the model is sent the system message, the summary, then the messages from `window.from`. */
    window?: ConversationWindow;
    /** `messages` are the conversation's messages from this index up to `messageCount`. */
    from?: number;
    /** The messages since the previous model call; the worker has or reads the ones before `from`. */
    messages?: Message[];
    /**
     * Instead of `messages`, in runs described with the tool-result-references feature: the same
     * messages with the larger tool results named, not carried (see tool-result-references.ts).
     * A worker that knows neither field reads the whole conversation through the query.
     */
    referencing?: ReferencingDelta;
  };
}

export interface CallModelOutput {
  message: AssistantMessage;
  usage: TokenUsage;
  model: string;
}

/** The model client the worker was given (see src/model). */
export interface ChatModelPort {
  complete(
    request: Omit<Pick<CallModelInput, 'model' | 'messages' | 'tools' | 'settings' | 'responseFormat'>, 'model'> & { model?: string },
    options?: { signal?: AbortSignal; onText?: (textSoFar: string) => void; onChunk?: () => void; onDelta?: (delta: LiveDelta) => void },
  ): Promise<{ message: CallModelOutput['message']; usage: CallModelOutput['usage']; model: string }>;
}

/** What a model call heartbeats: the text so far (streaming), so `watch` shows it without history events. */
export interface ModelHeartbeat extends AttemptHeartbeat {
  model: string;
  iteration: number;
  text: string;
  /** Temporal keeps the last details across retries; this tells a reader they are stale. */
  attempt: number;
  /**
   * Where this attempt's text and tool-call deltas are served as they are written (the worker's
   * live endpoint and an unguessable path); absent when the worker serves none.
   */
  live?: string;
  /** While the call waits for its model's fleet-wide quota (see common/model-limits.ts): what it waits for. */
  quota?: string;
  /** Its grant, which a next attempt of the call keeps. */
  quotaGrant?: QuotaGrant;
}
