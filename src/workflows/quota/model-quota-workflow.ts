import { allHandlersFinished, condition, continueAsNew, log, setHandler, workflowInfo } from '@temporalio/workflow';
import { modelLimitsSchema, quotaPayloadSchemas, quotaPausedUntilQuery, quotaPauseSignal, quotaUsedSignal, reserveQuotaUpdate } from '../../common/model-limits';
import { nowMs } from '../platform';
import { emptyBook, grant, pauseUntil, prune, recordUsage, type QuotaBook } from './quota-schedule';

export interface ModelQuotaInput {
  model: string;
  /** Set only by continue-as-new. */
  carried?: QuotaBook;
}

/** With nothing asked for this long (and no grant still to come), the workflow ends; the next call starts it again. */
const IDLE_END = '1 hour';
/** Continue as new well before Temporal's suggestion: each grant costs a few events. */
const MAX_HISTORY_EVENTS = 5_000;

/**
 * The quota of one model for the whole fleet: every worker's model call asks it (an update,
 * answered at once) when it may start, and waits until then; a 429 pauses every later start.
 * Deterministic: its clock is the workflow's.
 */
export async function modelQuotaWorkflow(input: ModelQuotaInput): Promise<void> {
  const book = input.carried ?? emptyBook();
  let lastAsked = nowMs();
  setHandler(
    reserveQuotaUpdate,
    (request) => {
      lastAsked = nowMs();
      return grant(book, lastAsked, request.tokens, request.limits);
    },
    {
      validator: (request) => {
        quotaPayloadSchemas.reserve().parse(request);
        const limits = modelLimitsSchema().safeParse({ [input.model]: request.limits });
        if (!limits.success) throw new Error(`limits for ${input.model}: ${limits.error.issues.map((issue) => issue.message).join('; ')}`);
      },
    },
  );
  // Signals cannot be refused: one that does not parse is logged and left out.
  setHandler(quotaUsedSignal, (usage) => {
    const parsed = quotaPayloadSchemas.used().safeParse(usage);
    if (parsed.success) recordUsage(book, parsed.data);
    else log.warn('Quota usage report ignored: not a usage report', { model: input.model });
  });
  setHandler(quotaPauseSignal, (pause) => {
    const parsed = quotaPayloadSchemas.pause().safeParse(pause);
    if (parsed.success) pauseUntil(book, parsed.data.until);
    else log.warn('Quota pause ignored: not a pause', { model: input.model });
  });
  setHandler(quotaPausedUntilQuery, () => book.pausedUntil);

  for (;;) {
    const due = await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > MAX_HISTORY_EVENTS, IDLE_END);
    if (!due) {
      const now = nowMs();
      if (now - lastAsked >= 3_600_000 && book.pausedUntil <= now && book.grants.every((entry) => entry.at <= now)) return;
      continue;
    }
    await condition(allHandlersFinished);
    prune(book, nowMs());
    await continueAsNew<typeof modelQuotaWorkflow>({ model: input.model, carried: book });
  }
}
