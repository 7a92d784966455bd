import { Context } from '@temporalio/activity';
import { ApplicationFailure, type Duration } from '@temporalio/common';
import { ownFailuresIn } from '../common/contracts/attempt-budget';
import { QuotaWaitTooLong, type ModelQuotaPort, type QuotaPermit } from '../common/contracts/model-quota';
import type { QuotaGrant } from '../common/model-limits';
import { durationMs } from '../common/duration';
import { windowedMessages } from '../common/memory';
import { appendToSystem } from '../common/system-addition';
import type { CallModelInput, CallModelOutput, CallModelRequest, ChatModelPort, ModelHeartbeat } from '../common/contracts/model-call';
import { ConversationCache } from './conversation-cache';
import { conversationForCall } from './conversation-for-call';
import { ToolResultCache } from './tool-result-cache';
import type { ConversationReader } from '../common/contracts/conversation-reader';
import { runAttempt, type AttemptControls } from './step-attempt';
import { FailureTypes } from '../common/failures';
import { composeMiddleware, type Middleware } from './middleware';
import type { ActivityTracing } from '../telemetry/activity-tracing';
import { observeModelCall } from '../telemetry/observe-model-call';
import type { LiveCalls } from './live-calls';

/** The worker's live endpoint: where streaming calls' deltas are served (src/worker/live-endpoint.ts). */
export interface LiveChannel {
  calls: LiveCalls;
  /** The endpoint's address as clients reach it, e.g. http://10.0.0.5:7300 */
  url: string;
}

/** Time an attempt keeps, past the quota wait it allows (a quarter of it at most), for the call itself to be cut off cleanly. */
const QUOTA_WAIT_MARGIN_MS = 30_000;

/** The grant an earlier attempt kept in its heartbeat, when it had one. */
function heldGrantIn(details: unknown): QuotaGrant | undefined {
  const grant = (details as { quotaGrant?: unknown } | undefined)?.quotaGrant as Partial<QuotaGrant> | undefined;
  return typeof grant?.at === 'number' && typeof grant.ahead === 'number' ? { at: grant.at, ahead: grant.ahead } : undefined;
}

/** A request's tokens before the provider counts them: its JSON at 4 characters a token, and the reply's cap when it has one. */
function estimatedRequestTokens(input: CallModelInput): number {
  return Math.ceil(JSON.stringify([input.messages, input.tools]).length / 4) + (input.settings.maxTokens ?? 0);
}

function delayMs(delay: Duration | undefined | null): number | undefined {
  return delay === undefined || delay === null ? undefined : durationMs(delay);
}

function heartbeatTimeoutMs(): number {
  return Context.current().info.heartbeatTimeoutMs ?? 60_000;
}

export function callModelActivity(
  model: ChatModelPort,
  conversations: ConversationReader,
  middleware: Middleware[],
  tracing?: ActivityTracing,
  cache: ConversationCache = new ConversationCache(),
  toolResults: ToolResultCache = new ToolResultCache(),
  live?: LiveChannel,
  quota?: ModelQuotaPort,
) {
  const steps = middleware.flatMap((m) => (m.onModelCall ? [m.onModelCall.bind(m)] : []));
  const complete = (input: CallModelInput): Promise<CallModelOutput> => {
    const label = input.model || input.settings.name || 'the default model';
    const attempt = {
      budget: input.budget,
      subject: `Model ${label}`,
      timeoutType: FailureTypes.modelTimeout,
      // A stream that stops sending chunks is the model's failure, not the worker's: it counts.
      ...(input.settings.stream && input.budget ? { idleMs: heartbeatTimeoutMs() } : {}),
    };
    return waitForQuota(input).then((permit) => runAttempt(attempt, (controls) => completeOnce(input, controls, permit)));
  };
  /**
   * Before the attempt's own time starts: a wait for the model's quota is no failure of the model.
   * A wait longer than the attempt may last goes on in the next attempt, which keeps its place.
   */
  const waitForQuota = async (input: CallModelInput): Promise<QuotaPermit | undefined> => {
    if (!quota) return undefined;
    const ctx = Context.current();
    const startedAt = Date.now();
    // The attempt count travels in the heartbeat (see step-attempt.ts): kept while the call waits, with the grant.
    const ownFailures = ownFailuresIn(ctx.info.heartbeatDetails);
    const held = heldGrantIn(ctx.info.heartbeatDetails);
    const onWaiting = (text: string, grant: QuotaGrant) =>
      ctx.heartbeat({ model: input.model, iteration: input.iteration, text: '', attempt: ctx.info.attempt, quota: text, quotaGrant: grant, ownFailures } satisfies ModelHeartbeat & {
        ownFailures: number;
      });
    try {
      return await quota.take(input.model, estimatedRequestTokens(input), {
        signal: ctx.cancellationSignal,
        onWaiting,
        ...(held ? { held } : {}),
        until: startedAt + ctx.info.startToCloseTimeoutMs - Math.min(QUOTA_WAIT_MARGIN_MS, ctx.info.startToCloseTimeoutMs / 4),
      });
    } catch (error) {
      if (!(error instanceof QuotaWaitTooLong)) throw error;
      throw ApplicationFailure.create({ message: error.message, type: FailureTypes.modelQuotaWait, nextRetryDelay: Math.max(1, error.grant.at - Date.now()) });
    }
  };
  const completeOnce = async (input: CallModelInput, controls: AttemptControls, permit: QuotaPermit | undefined): Promise<CallModelOutput> => {
    const ctx = Context.current();
    const request = {
      model: input.model || undefined,
      messages: input.messages,
      tools: input.tools,
      settings: input.settings,
      ...(input.responseFormat ? { responseFormat: input.responseFormat } : {}),
    };
    const writer = input.settings.stream ? live?.calls.open() : undefined;
    const liveUrl = writer ? { live: `${live!.url}/calls/${writer.path}` } : {};
    const heartbeat = (text: string) =>
      controls.heartbeat({ model: input.model, iteration: input.iteration, text, attempt: ctx.info.attempt, ...liveUrl } satisfies ModelHeartbeat);
    // The first heartbeat is sent at once: it tells followers where this attempt's deltas are.
    if (writer) heartbeat('');
    try {
      const response = await model.complete(request, {
        signal: controls.signal,
        ...(input.settings.stream
          ? {
              onText: (textSoFar: string) => heartbeat(textSoFar),
              onChunk: controls.touch,
              ...(writer ? { onDelta: writer.push } : {}),
            }
          : {}),
      });
      permit?.used(response.usage.totalTokens);
      return { message: response.message, usage: response.usage, model: response.model };
    } catch (error) {
      if (error instanceof ApplicationFailure && error.type === FailureTypes.modelRateLimit) permit?.rateLimited(delayMs(error.nextRetryDelay));
      throw error;
    } finally {
      writer?.end();
    }
  };
  const run = composeMiddleware<CallModelInput, CallModelOutput>(steps, (input) => observeModelCall(tracing, input, () => complete(input)));
  return async function callModel(request: CallModelRequest): Promise<CallModelOutput> {
    const { workflowId, runId } = Context.current().info.workflowExecution ?? { workflowId: '', runId: '' };
    const { conversation, ...rest } = request;
    const messages = windowedMessages(await conversationForCall(conversation, { workflowId, runId }, cache, conversations, toolResults), conversation.window);
    // Middleware sees the call as the model will: the whole conversation (or its window).
    return run({ ...rest, messages: appendToSystem(messages, conversation.systemAddition) });
  };
}
