import { Context } from '@temporalio/activity';
import type { TokenUsage } from '../common/messages';
import { AgentMetric } from './metric-names';

// Activity code: Temporal's activity meter adds namespace, task queue and activity type, and is a
// no-op unless the runtime exports metrics (see installRuntime).

export function recordModelCall(model: string, outcome: 'success' | 'error', latencyMs: number, usage?: TokenUsage): void {
  const meter = Context.current().metricMeter;
  meter.createCounter(AgentMetric.modelCalls, 'calls', 'Model calls (each attempt), by model and outcome').add(1, { model, outcome });
  meter.createHistogram(AgentMetric.modelLatency, 'int', 'ms', 'Model call latency, by model').record(Math.max(0, Math.round(latencyMs)), { model, outcome });
  if (!usage) return;
  const tokens = meter.createCounter(AgentMetric.tokens, 'tokens', 'Tokens used, by model and type (input, output)');
  tokens.add(usage.promptTokens, { model, type: 'input' });
  tokens.add(usage.completionTokens, { model, type: 'output' });
}

/** `outcome`: the result's state (success, error, ...), `suspended` (waits for an external result) or `failure` (thrown; Temporal may retry). */
export function recordToolCall(tool: string, outcome: string): void {
  Context.current().metricMeter.createCounter(AgentMetric.toolCalls, 'calls', 'Tool executions (each attempt), by tool and outcome').add(1, { tool, outcome });
}

/** A step this worker left to another because it does not serve the run's agent. */
export function recordRefusedStep(agent: string, activity: string): void {
  Context.current().metricMeter.createCounter(AgentMetric.stepsRefused, 'steps', "Steps a worker left to another because it does not serve the run's agent, by agent and activity").add(1, { agent, activity });
}
