import { CancelledFailure } from '@temporalio/common';
import OpenAI, { APIConnectionTimeoutError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { AssistantMessage } from '../common/messages';
import { buildChatRequest } from './build-chat-request';
import { keepAliveFetch } from './keep-alive-fetch';
import type { ChatModel, ChatModelConfig } from './chat-model-types';
import { classifyModelError } from './classify-model-error';
import { readCompletion } from './read-completion';
import { readCompletionStream } from './read-completion-stream';
import { callSignal } from './call-signal';
import { readsTextToolCalls, readTextToolCalls } from './text-tool-calls';
import { constrainedRequest, constrainsCalls, readConstrainedReply } from './constrained-calls';

const defaultTimeoutMs = 5 * 60_000;

/**
 * An OpenAI-compatible chat model. Never retries by itself: every failure is an `ApplicationFailure`
 * that tells Temporal whether (and when) to retry the activity.
 */
export function createChatModel(config: ChatModelConfig): ChatModel {
  const timeoutMs = config.timeoutMs ?? defaultTimeoutMs;
  const client = new OpenAI({
    baseURL: config.baseURL ?? 'https://api.openai.com/v1',
    apiKey: config.apiKey,
    maxRetries: 0,
    timeout: timeoutMs,
    fetch: keepAliveFetch(),
  });

  const withTextCalls = <R extends { message: AssistantMessage; model: string }>(result: R, textToolCalls: boolean | undefined, offered: number): R =>
    readsTextToolCalls(textToolCalls, config.textToolCallModels ?? [], result.model) ? { ...result, message: readTextToolCalls(result.message, offered) } : result;

  return {
    async complete(request, options = {}) {
      const model = request.model ?? request.settings.name ?? config.defaultModel;
      const { settings } = request;
      const constrained = constrainsCalls(settings.constrainedCalls, config.constrainedCallModels ?? [], model, request.tools.length);
      const { messages, tools, responseFormat } = constrained ? constrainedRequest(request) : request;
      const body = buildChatRequest({ model, messages, tools, settings, ...(responseFormat ? { responseFormat } : {}) });
      // A constrained reply that is no call or answer (cut off at the token limit) is read as text would be.
      const read = <R extends { message: AssistantMessage; model: string }>(result: R): R => {
        const message = constrained ? readConstrainedReply(result.message) : result.message;
        return message !== result.message ? { ...result, message } : withTextCalls(result, settings.textToolCalls, request.tools.length);
      };
      // The client's own timeout stops at the response headers; this one also bounds the body.
      const call = callSignal(options.signal, timeoutMs);
      const { signal } = call;
      try {
        if (body.stream) {
          const stream = await client.chat.completions.create(body as unknown as ChatCompletionCreateParamsStreaming, {
            signal,
          });
          return read(await readCompletionStream(stream, model, options));
        }
        const completion = await client.chat.completions.create(
          body as unknown as ChatCompletionCreateParamsNonStreaming,
          { signal },
        );
        const result = readCompletion(completion, model);
        if (result.message.content) options.onText?.(result.message.content);
        return read(result);
      } catch (error) {
        if (options.signal?.aborted) throw new CancelledFailure(`Call to model ${model} was cancelled.`);
        const cause = call.deadlinePassed()
          ? new APIConnectionTimeoutError({ message: `No complete response within ${timeoutMs} ms.` })
          : error;
        throw classifyModelError(cause, { model, secrets: [config.apiKey] });
      } finally {
        call.release();
      }
    },
  };
}
