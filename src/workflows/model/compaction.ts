import { ActivityFailure, ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import { FailureTypes } from '../../common/failures';
import { DEFAULT_KEEP_RECENT_MESSAGES } from '../../common/memory';
import type { Message } from '../../common/messages';
import { CHARS_PER_TOKEN, estimatedTokens } from '../context';
import { charge } from '../spend';
import { activities } from '../platform';
import { modelSchedule } from './model-step';
import type { Writing } from '../state';
import { apply } from '../effects';

/** Without a budget (a 400 compacted the conversation), the summary request carries at most this much transcript. */
const DEFAULT_SUMMARY_INPUT_CHARS = 64_000;

/** Where the kept messages start: `keep` from the end, moved back so that tool results keep the call that asked for them. */
function keptFrom(messages: Message[], keep: number): number {
  let from = Math.max(1, messages.length - keep);
  while (from > 1 && messages[from]!.role === 'tool') from -= 1;
  return from;
}

/** Whether a failed model call said the conversation is longer than the model's context. */
export function isContextTooLong(error: unknown): boolean {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === FailureTypes.modelContextTooLong;
}

/**
 * Summarises the messages between the current window's start and the kept newest ones into one
 * message (the summary so far included); the model is then sent the system message, that summary
 * and the newest messages, while every message stays in the run. False when there is nothing
 * older than the kept messages to summarise.
 */
export async function compact(state: Writing<'context'>, reason: 'budget' | 'context_too_long'): Promise<boolean> {
  const memory = state.descriptor.memory;
  const settings = state.descriptor.model;
  const from = state.window?.from ?? 1;
  const configured = memory?.keepRecentMessages ?? DEFAULT_KEEP_RECENT_MESSAGES;
  // The model refused what it was sent: keep at most the newer half of the window, so something is summarised.
  const keep = reason === 'context_too_long' ? Math.min(configured, Math.max(1, Math.floor((state.messages.length - from) / 2))) : configured;
  const upTo = keptFrom(state.messages, keep);
  if (upTo <= from) return false;
  const estimate = estimatedTokens(state);
  apply(state, { step: { text: `compacting the conversation: ${upTo - from} older message(s) into a summary` } });
  const schedule = modelSchedule(settings);
  const output = await activities.compactConversation.executeWithOptions(
    { summary: `compact messages ${from}–${upTo - 1}`, ...schedule.options },
    [
      {
        agent: state.agent,
        model: memory?.model ?? settings.name ?? '',
        settings,
        conversationId: workflowInfo().firstExecutionRunId,
        from,
        upTo,
        ...(state.window ? { previousSummary: state.window.summary } : {}),
        maxChars: memory ? memory.maxTokens * CHARS_PER_TOKEN : DEFAULT_SUMMARY_INPUT_CHARS,
        budget: schedule.budget,
      },
    ],
  );
  const cost = charge(state, settings.prices, output);
  state.window = { from: upTo, summary: output.summary };
  state.lastCall = undefined;
  apply(state, {
    events: [
      {
        type: 'conversation_compacted',
        reason,
        summarized: upTo - from,
        keptFrom: upTo,
        estimatedTokens: estimate,
        summaryChars: output.summary.length,
        model: output.model,
        usage: output.usage,
        ...(cost !== undefined ? { cost } : {}),
      },
    ],
  });
  return true;
}

/** Whether the agent has a context budget and the next model call's conversation would pass it. */
export function overBudget(state: Writing<'context'>): boolean {
  const budget = state.descriptor.memory?.maxTokens;
  return budget !== undefined && estimatedTokens(state) > budget;
}
