import type { AgentEvent } from '../common/events';
import type { TokenUsage } from '../common/messages';
import { describeMatcher, mismatch } from './arg-matchers';
import { callsOf, describeCall, type RunCall } from './run-calls';
import type { ExpectationResult } from './eval-report';
import { scoreAnswer } from './score-answer';
import type { EvalExpect } from './suite-schema';

/** What a case's run recorded, read back from it when it ended. */
export interface RunFacts {
  status: string;
  output: string;
  data?: unknown;
  usage: TokenUsage;
  cost?: number;
  iterations: number;
  events: readonly AgentEvent[];
}

function result(expectation: string, passed: boolean, expected: string, actual: string): ExpectationResult {
  return { expectation, passed, expected, actual };
}

function callList(calls: readonly RunCall[]): string {
  return calls.length === 0 ? 'no tool was called' : `calls: ${calls.map(describeCall).join(', ')}`;
}

/** Whether `wanted` appears in `tools` in this order (other calls may come between). */
function inOrder(tools: readonly string[], wanted: readonly string[]): boolean {
  let next = 0;
  for (const tool of tools) if (tool === wanted[next]) next += 1;
  return next === wanted.length;
}

function scoreCalls(expect: EvalExpect, calls: readonly RunCall[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  for (const wanted of expect.called ?? []) {
    const ofTool = calls.filter((call) => call.tool === wanted.tool);
    const fits = ofTool.find((call) => wanted.args === undefined || mismatch(wanted.args, call.input) === undefined);
    const expected = `a call of ${wanted.tool}${wanted.args ? ` with ${describeMatcher(wanted.args)}` : ''}`;
    const why = ofTool.length > 0 && wanted.args ? `; ${mismatch(wanted.args, ofTool[0]!.input)}` : '';
    results.push(result(`called ${wanted.tool}`, fits !== undefined, expected, fits ? describeCall(fits) : `${callList(calls)}${why}`));
  }
  for (const tool of expect.notCalled ?? []) {
    const made = calls.filter((call) => call.tool === tool);
    results.push(result(`not called ${tool}`, made.length === 0, `no call of ${tool}`, made.length === 0 ? callList(calls) : made.map(describeCall).join(', ')));
  }
  if (expect.order) {
    const tools = calls.map((call) => call.tool);
    results.push(result('order', inOrder(tools, expect.order), `calls in the order ${expect.order.join(' → ')}`, tools.length === 0 ? 'no tool was called' : `calls in the order ${tools.join(' → ')}`));
  }
  return results;
}

/**
 * A case's expectations scored on what its run recorded: the calls in its events, its status,
 * answer, tokens, cost and iterations in its result. A run must end `completed` unless the case
 * expects another status. The judge's expectation is scored apart (it asks a model).
 */
export function scoreRun(expect: EvalExpect, facts: RunFacts): ExpectationResult[] {
  const wantedStatus = expect.status ?? 'completed';
  const results = [result('status', facts.status === wantedStatus, `status ${wantedStatus}`, `status ${facts.status}`)];
  results.push(...scoreCalls(expect, callsOf(facts.events)));
  if (expect.answer) results.push(...scoreAnswer(expect.answer, facts.output, facts.data));
  if (expect.iterations) results.push(result('iterations', facts.iterations <= expect.iterations.max, `at most ${expect.iterations.max} iterations`, `${facts.iterations} iterations`));
  if (expect.tokens) results.push(result('tokens', facts.usage.totalTokens <= expect.tokens.max, `at most ${expect.tokens.max} tokens`, `${facts.usage.totalTokens} tokens`));
  if (expect.cost) {
    const cost = facts.cost;
    results.push(result('cost', cost !== undefined && cost <= expect.cost.max, `a cost of at most ${expect.cost.max}`, cost === undefined ? 'no cost: the agent has no price for its model (model.prices)' : `a cost of ${cost}`));
  }
  return results;
}
