import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import type { CallModelInput, CallModelOutput } from '../common/contracts/model-call';
import type { ActivityTracing } from './activity-tracing';
import { recordModelCall } from './activity-metrics';
import { inputMessages, outputMessages, systemInstructions } from './content-attributes';
import { AgentAttr, GEN_AI_PROVIDER, GenAi, GenAiOperation } from './gen-ai';
import { failSpan } from './span-failure';

type ModelReply = Pick<CallModelOutput, 'message' | 'usage' | 'model'>;

function requestAttributes(input: CallModelInput, captureContent: boolean): Attributes {
  const attributes: Attributes = {
    [GenAi.operationName]: GenAiOperation.chat,
    [GenAi.providerName]: GEN_AI_PROVIDER,
    [GenAi.agentName]: input.agent,
    [AgentAttr.iteration]: input.iteration,
  };
  if (input.model) attributes[GenAi.requestModel] = input.model;
  if (input.settings.temperature !== undefined) attributes[GenAi.requestTemperature] = input.settings.temperature;
  if (input.settings.maxTokens !== undefined) attributes[GenAi.requestMaxTokens] = input.settings.maxTokens;
  if (captureContent) {
    const system = systemInstructions(input.messages);
    if (system) attributes[GenAi.systemInstructions] = system;
    attributes[GenAi.inputMessages] = inputMessages(input.messages);
  }
  return attributes;
}

async function traced<R extends ModelReply>(tracing: ActivityTracing, input: CallModelInput, call: () => Promise<R>): Promise<R> {
  const span = tracing.tracer.startSpan(`${GenAiOperation.chat}${input.model ? ` ${input.model}` : ''}`, {
    kind: SpanKind.CLIENT,
    attributes: requestAttributes(input, tracing.captureContent),
  });
  try {
    const reply = await context.with(trace.setSpan(context.active(), span), call);
    if (!input.model) span.updateName(`${GenAiOperation.chat} ${reply.model}`);
    span.setAttributes({
      [GenAi.responseModel]: reply.model,
      [GenAi.inputTokens]: reply.usage.promptTokens,
      [GenAi.outputTokens]: reply.usage.completionTokens,
      ...(tracing.captureContent ? { [GenAi.outputMessages]: outputMessages(reply.message) } : {}),
    });
    return reply;
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * One request to the model: a `chat {model}` span (a child of the activity's span) and the model
 * metrics. Each activity attempt is its own call.
 */
export async function observeModelCall<R extends ModelReply>(tracing: ActivityTracing | undefined, input: CallModelInput, call: () => Promise<R>): Promise<R> {
  const started = Date.now();
  try {
    const reply = await (tracing ? traced(tracing, input, call) : call());
    recordModelCall(input.model || reply.model, 'success', Date.now() - started, reply.usage);
    return reply;
  } catch (error) {
    recordModelCall(input.model || 'default', 'error', Date.now() - started);
    throw error;
  }
}
