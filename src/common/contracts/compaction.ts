import type { ModelSettings } from '../agent';
import type { AttemptBudget } from './attempt-budget';
import type { TokenUsage } from '../messages';

/** A compaction: the oldest messages of a conversation summarised by a model call. */
export interface CompactConversationRequest {
  agent: string;
  /** The model that writes the summary; '' for the worker's default. */
  model: string;
  settings: ModelSettings;
  /** The conversation's identity (as in model calls) and the messages to summarise: `from` up to `upTo`. */
  conversationId: string;
  from: number;
  upTo: number;
  /** The summary that already stands for the messages before `from`. */
  previousSummary?: string;
  /** The most characters of transcript the summary request carries (newest kept). */
  maxChars: number;
  /** The call's own attempts (see AttemptBudget); absent in calls scheduled before it existed. */
  budget?: AttemptBudget;
}

export interface CompactConversationOutput {
  summary: string;
  usage: TokenUsage;
  model: string;
}
