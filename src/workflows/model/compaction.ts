import { ActivityFailure, ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import { FailureTypes } from '../../common/failures';
import { DEFAULT_KEEP_RECENT_MESSAGES, windowedMessages } from '../../common/memory';
import { addUsage, jsonChars, type Message } from '../../common/messages';
import { callCost } from '../../common/pricing';
import { activities } from '../platform';
import { nowIso } from '../platform';
import { recordEvent } from '../effects';
import { modelSchedule } from './model-step';
import type { RunState } from '../state';
import { setStep } from '../effects';

/** Characters per token for estimates: the usual figure for English text and JSON with OpenAI's tokenizers. */
const CHARS_PER_TOKEN = 4;
/** Without a budget (a 400 compacted the conversation), the summary request carries at most this much transcript. */
const DEFAULT_SUMMARY_INPUT_CHARS = 64_000;

/**
 * Tokens of the next model call's conversation: the previous call's reported prompt and completion
 * tokens plus an estimate (characters of JSON ÷ 4) of the messages added since; the estimate alone
 * when there is no reported usage (the first call, after a compaction or a continue-as-new).
 */
export function estimatedTokens(state: RunState): number {
  const last = state.lastCall;
  if (last && last.promptTokens > 0 && last.messageCount <= state.messages.length) {
    return last.promptTokens + last.completionTokens + Math.ceil(jsonChars(state.messages.slice(last.messageCount)) / CHARS_PER_TOKEN);
  }
  return Math.ceil(jsonChars(windowedMessages(state.messages, state.window)) / CHARS_PER_TOKEN);
}

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
export async function compact(state: RunState, reason: 'budget' | 'context_too_long'): Promise<boolean> {
  const memory = state.descriptor.memory;
  const settings = state.descriptor.model;
  const from = state.window?.from ?? 1;
  const configured = memory?.keepRecentMessages ?? DEFAULT_KEEP_RECENT_MESSAGES;
  // The model refused what it was sent: keep at most the newer half of the window, so something is summarised.
  const keep = reason === 'context_too_long' ? Math.min(configured, Math.max(1, Math.floor((state.messages.length - from) / 2))) : configured;
  const upTo = keptFrom(state.messages, keep);
  if (upTo <= from) return false;
  const estimate = estimatedTokens(state);
  setStep(state, `compacting the conversation: ${upTo - from} older message(s) into a summary`);
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
  const cost = callCost(settings.prices, output.model, output.usage);
  state.usage = addUsage(state.usage, output.usage);
  state.cost += cost ?? 0;
  state.window = { from: upTo, summary: output.summary };
  state.lastCall = undefined;
  recordEvent(
    state,
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
    nowIso(),
  );
  return true;
}

/** Whether the agent has a context budget and the next model call's conversation would pass it. */
export function overBudget(state: RunState): boolean {
  const budget = state.descriptor.memory?.maxTokens;
  return budget !== undefined && estimatedTokens(state) > budget;
}
