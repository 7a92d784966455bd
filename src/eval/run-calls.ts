import { BUDGET_TOOL } from '../common/budget';
import type { AgentEvent } from '../common/events';
import type { TokenUsage } from '../common/messages';
import { shortJson } from './canonical-json';

/** One call the model made, as the run's events tell it. */
export interface RunCall {
  callId: string;
  tool: string;
  /** The arguments as the model wrote them (checked, with presets), as first recorded. */
  input: unknown;
  /** How it ended: success, error, denied, cancelled, or still open when the run ended. */
  outcome: string;
}

/** The calls of the model, in the order it made them (the `$budget` call of a reached budget is not one). */
export function callsOf(events: readonly AgentEvent[]): RunCall[] {
  const calls = new Map<string, RunCall>();
  const callOf = (callId: string, tool: string, input: unknown): RunCall | undefined => {
    if (tool === BUDGET_TOOL) return undefined;
    let call = calls.get(callId);
    if (!call) calls.set(callId, (call = { callId, tool, input, outcome: 'open' }));
    return call;
  };
  for (const event of events) {
    switch (event.type) {
      case 'tool_call_started':
      case 'permission_requested':
      case 'external_requested':
        callOf(event.callId, event.tool, event.input);
        break;
      case 'tool_call_finished': {
        const call = calls.get(event.callId);
        if (call) call.outcome = event.state;
        if (call && event.input !== undefined) call.input = event.input;
        break;
      }
      case 'permission_decided': {
        const call = calls.get(event.callId);
        if (call && event.behavior === 'deny') call.outcome = 'denied';
        break;
      }
      default:
    }
  }
  return [...calls.values()];
}

export function describeCall(call: RunCall): string {
  return `${call.tool}(${shortJson(call.input, 120)})${call.outcome === 'success' ? '' : ` ${call.outcome}`}`;
}

/** What the run's model calls used, summed from its events. */
export function usageOf(events: readonly AgentEvent[]): { usage: TokenUsage; cost?: number; iterations: number } {
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let cost: number | undefined;
  let iterations = 0;
  for (const event of events) {
    if (event.type === 'iteration_started') iterations += 1;
    if (event.type !== 'model_call_finished' && event.type !== 'conversation_compacted') continue;
    usage.promptTokens += event.usage.promptTokens;
    usage.completionTokens += event.usage.completionTokens;
    usage.totalTokens += event.usage.totalTokens;
    if (event.cost !== undefined) cost = (cost ?? 0) + event.cost;
  }
  return { usage, ...(cost !== undefined ? { cost } : {}), iterations };
}
