import { Context } from '@temporalio/activity';
import { windowedMessages } from '../common/memory';
import { appendToSystem } from '../common/system-addition';
import type { CallModelInput, CallModelOutput, CallModelRequest } from './activity-types';
import { ConversationCache } from './conversation-cache';
import { conversationForCall } from './conversation-for-call';
import type { ConversationReader } from '../client/conversation-reader';
import { withAutoHeartbeat } from './auto-heartbeat';
import { composeMiddleware, type Middleware } from './middleware';
import type { ActivityTracing } from '../telemetry/activity-tracing';
import { observeModelCall } from '../telemetry/observe-model-call';

/** The model client the worker was given (see src/model). */
export interface ChatModelPort {
  complete(
    request: Omit<Pick<CallModelInput, 'model' | 'messages' | 'tools' | 'settings'>, 'model'> & { model?: string },
    options?: { signal?: AbortSignal; onText?: (textSoFar: string) => void; onChunk?: () => void },
  ): Promise<{ message: CallModelOutput['message']; usage: CallModelOutput['usage']; model: string }>;
}

export interface ModelHeartbeat {
  model: string;
  iteration: number;
  text: string;
  /** Temporal keeps the last details across retries; this tells a reader they are stale. */
  attempt: number;
}

export function callModelActivity(
  model: ChatModelPort,
  conversations: ConversationReader,
  middleware: Middleware[],
  tracing?: ActivityTracing,
  cache: ConversationCache = new ConversationCache(),
) {
  const steps = middleware.flatMap((m) => (m.onModelCall ? [m.onModelCall.bind(m)] : []));
  const complete = async (input: CallModelInput): Promise<CallModelOutput> => {
    const ctx = Context.current();
    const request = { model: input.model || undefined, messages: input.messages, tools: input.tools, settings: input.settings };
    const heartbeat = (text: string) => ctx.heartbeat({ model: input.model, iteration: input.iteration, text, attempt: ctx.info.attempt } satisfies ModelHeartbeat);
    if (input.settings.stream) {
      // Streaming heartbeats only when chunks arrive, so a stalled stream hits the heartbeat timeout.
      // The SDK throttles heartbeats, so one per chunk is cheap.
      let text = '';
      const response = await model.complete(request, {
        signal: ctx.cancellationSignal,
        onText: (textSoFar) => heartbeat((text = textSoFar)),
        onChunk: () => heartbeat(text),
      });
      return { message: response.message, usage: response.usage, model: response.model };
    }
    const response = await withAutoHeartbeat(() => model.complete(request, { signal: ctx.cancellationSignal }));
    return { message: response.message, usage: response.usage, model: response.model };
  };
  const run = composeMiddleware<CallModelInput, CallModelOutput>(steps, (input) => observeModelCall(tracing, input, () => complete(input)));
  return async function callModel(request: CallModelRequest): Promise<CallModelOutput> {
    const { workflowId, runId } = Context.current().info.workflowExecution ?? { workflowId: '', runId: '' };
    const { conversation, ...rest } = request;
    const messages = windowedMessages(await conversationForCall(conversation, { workflowId, runId }, cache, conversations), conversation.window);
    // Middleware sees the call as the model will: the whole conversation (or its window).
    return run({ ...rest, messages: appendToSystem(messages, conversation.systemAddition) });
  };
}
