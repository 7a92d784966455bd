import { ActivityFailure, ApplicationFailure, isCancellation, log, workflowInfo } from '@temporalio/workflow';
import type { CallModelOutput, ModelToolDefinition } from '../../common/contracts/model-call';
import type { ModelSettings } from '../../common/agent';
import type { ToolSpec } from '../../common/tools';
import { activities, stepSchedule, type StepSchedule } from '../platform';
import { deltaStart, referencingDelta } from '../context';
import { RUNTIME_FEATURES } from '../../common/runtime-features';
import type { Writing } from '../state';
import { toolGroupsPrompt } from '../toolset';
import { responseFormatOf } from './typed-answer';
import { apply } from '../effects';

/** The model settings of one call: without tools, no tool choice; a typed answer through its tool, a tool call required. */
function callSettings(settings: ModelSettings, descriptor: Writing<'context'>['descriptor'], tools: ToolSpec[]): ModelSettings {
  if (tools.length === 0) return { ...settings, toolChoice: undefined, parallelToolCalls: undefined };
  if (descriptor.output?.via === 'tool' && settings.toolChoice === undefined) return { ...settings, toolChoice: 'required' };
  return settings;
}

export const DEFAULT_MODEL_TIMEOUT = '5 minutes';
export const DEFAULT_MODEL_ATTEMPTS = 5;
export const DEFAULT_MODEL_HEARTBEAT_TIMEOUT = '60s';

/** How a model call (or a compaction, which is one) is scheduled: its own failures counted, crashes retried in its total time. */
export function modelSchedule(settings: ModelSettings): StepSchedule {
  return stepSchedule({
    timeout: settings.timeout ?? DEFAULT_MODEL_TIMEOUT,
    heartbeatTimeout: settings.heartbeatTimeout ?? DEFAULT_MODEL_HEARTBEAT_TIMEOUT,
    maximumAttempts: settings.maximumAttempts ?? DEFAULT_MODEL_ATTEMPTS,
    ...(settings.totalTimeout !== undefined ? { totalTimeout: settings.totalTimeout } : {}),
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
  });
}

function toModelTools(tools: ToolSpec[]): ModelToolDefinition[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** The primary model and then each fallback. */
export function modelChain(state: Writing<'context'>): string[] {
  return [state.descriptor.model.name ?? '', ...(state.descriptor.model.fallbacks ?? [])];
}

/**
 * One reasoning step. Each model gets Temporal's retries; when one fails for good (non-retryable
 * error, or attempts spent) the next model of the chain gets the same request.
 */
export async function callModelWithFallback(state: Writing<'context'>, tools: ToolSpec[]): Promise<CallModelOutput> {
  const settings = state.descriptor.model;
  const chain = modelChain(state);
  // Without tools (the summary at the iteration limit) the groups would only confuse the model.
  const systemAddition = tools.length > 0 ? toolGroupsPrompt(state.descriptor, state.activeGroups) : '';
  const from = deltaStart(state.messages, state.modelSeen);
  const delta = state.messages.slice(from);
  const referencing = state.descriptor.runtimeFeatures?.includes(RUNTIME_FEATURES.toolResultReferences) ? referencingDelta(delta) : undefined;
  const conversation = {
    messageCount: state.messages.length,
    ...(systemAddition ? { systemAddition } : {}),
    id: workflowInfo().firstExecutionRunId,
    from,
    ...(referencing ? { referencing } : { messages: delta }),
    ...(state.window ? { window: state.window } : {}),
  };
  const schedule = modelSchedule(settings);
  const responseFormat = responseFormatOf(state.descriptor);
  let lastError: unknown;
  for (const [index, model] of chain.entries()) {
    const label = model || 'default';
    apply(state, { events: [{ type: 'model_call_started', iteration: state.iterations, model: label }] });
    try {
      const reply = await activities.callModel.executeWithOptions(
        { summary: `model ${label} #${state.iterations}`, ...schedule.options },
        [
          {
            agent: state.agent,
            model,
            settings: callSettings(settings, state.descriptor, tools),
            conversation,
            tools: toModelTools(tools),
            ...(responseFormat ? { responseFormat } : {}),
            iteration: state.iterations,
            budget: schedule.budget,
          },
        ],
      );
      state.modelSeen = conversation.messageCount;
      return reply;
    } catch (error) {
      if (isCancellation(error) || !(error instanceof ActivityFailure) || index === chain.length - 1) throw error;
      lastError = error;
      log.warn('Model failed; trying the next model of the fallback chain', {
        model: label,
        next: chain[index + 1] ?? 'default',
        error: (error.cause ?? error).message,
      });
    }
  }
  throw lastError ?? ApplicationFailure.nonRetryable('No model configured');
}
