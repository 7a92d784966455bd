import { Context } from '@temporalio/activity';
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
    return runAttempt(attempt, (controls) => completeOnce(input, controls));
  };
  const completeOnce = async (input: CallModelInput, controls: AttemptControls): Promise<CallModelOutput> => {
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
      return { message: response.message, usage: response.usage, model: response.model };
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
