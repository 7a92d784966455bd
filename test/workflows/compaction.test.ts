import type { AgentEvent } from '../../src/common/events';
import { defineAgent } from '../../src/toolkit/define-agent';
import type { ScriptFunction, ScriptedRequest } from '../../src/testing/scripted-model-types';
import { lookupTool } from '../fixtures/approval-tools';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';

const budgeted = defineAgent({
  name: 'budgeted',
  instructions: 'Look up every order.',
  tools: [lookupTool],
  maxIters: 8,
  memory: { maxTokens: 300, keepRecentMessages: 2 },
});
const unbudgeted = defineAgent({ name: 'unbudgeted', instructions: 'Look up every order.', tools: [lookupTool], maxIters: 8 });

const SUMMARY = 'The user wants orders looked up; ORD-1 and ORD-2 were found.';
const isSummaryRequest = (request: ScriptedRequest) => String(request.messages[0]?.content).startsWith('You condense conversations');
const hasSummary = (request: ScriptedRequest) => String(request.messages[1]?.content ?? '').startsWith('Summary of the earlier conversation');
/** The highest order looked up so far: in the tool results sent, or (2) in the summary. */
const lookedUp = (request: ScriptedRequest) =>
  Math.max(hasSummary(request) ? 2 : 0, ...request.messages.filter((m) => m.role === 'tool').map((m) => Number(/ORD-(\d+)/.exec(String(m.content))?.[1] ?? 0)));

/** Asks for ORD-1…ORD-4 one by one (each reply reporting a growing prompt), then answers; summaries on request. */
function script(tooLongAbove?: number): ScriptFunction {
  return (request, info) => {
    if (isSummaryRequest(request)) return { text: SUMMARY, usage: { promptTokens: 50, completionTokens: 12 } };
    if (tooLongAbove !== undefined && !hasSummary(request) && request.messages.length > tooLongAbove) {
      return {
        faults: [
          {
            status: 400,
            body: { error: { message: "This model's maximum context length is 4096 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } },
            times: 1,
          },
        ],
        text: 'unreachable',
      };
    }
    const done = lookedUp(request);
    const usage = { promptTokens: 120 * (info.turnIndex + 1), completionTokens: 10 };
    if (done < 4) return { toolCalls: [{ name: 'lookup', arguments: { key: `ORD-${done + 1}` } }], usage };
    return { text: `All ${done} looked up.`, usage };
  };
}

const compactions = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'conversation_compacted' }> => e.type === 'conversation_compacted');

describe('context-window management', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({ agents: [budgeted, unbudgeted] });
  });
  afterAll(async () => env?.stop());

  test('over the budget, the oldest messages are summarised for the model; every message stays in the result', async () => {
    env.model.setScript(script());
    const before = env.model.requests.length;
    const run = await env.client.start('budgeted', { prompt: 'Look up ORD-1 to ORD-4.' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    // system, user, then 4 × (assistant call + tool result), then the answer: nothing dropped.
    expect(result.messages.map((m) => m.role)).toEqual(['system', 'user', ...Array(4).fill(['assistant', 'tool']).flat(), 'assistant']);

    const requests = env.model.requests.slice(before).map((r) => r.body);
    const summaryRequest = requests.find(isSummaryRequest)!;
    expect(String(summaryRequest.messages[1]!.content)).toContain('lookup({"key":"ORD-1"})');
    expect(String(summaryRequest.messages[1]!.content)).toContain('value of ORD-1');
    const windowed = requests.filter((r) => !isSummaryRequest(r) && hasSummary(r));
    expect(windowed.length).toBeGreaterThan(0);
    expect(String(windowed[0]!.messages[1]!.content)).toContain(SUMMARY);
    // The window starts at an assistant call, never at an orphaned tool result.
    expect(windowed[0]!.messages[2]!.role).toBe('assistant');
    expect(windowed[0]!.messages.length).toBeLessThan(result.messages.length);

    const all = await run.eventsAfter(0);
    const events = compactions(all);
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ reason: 'budget', summaryChars: SUMMARY.length, usage: { promptTokens: 50, completionTokens: 12 } });
    expect(events[0]!.estimatedTokens).toBeGreaterThan(300);
    // The summaries' tokens count in the run's usage, beside the model calls'.
    const calls = all.filter((e): e is Extract<AgentEvent, { type: 'model_call_finished' }> => e.type === 'model_call_finished');
    const total = [...calls, ...events].reduce((sum, e) => sum + e.usage.totalTokens, 0);
    expect(result.usage.totalTokens).toBe(total);
    await maybeRecordHistory(run, 'compaction-at-budget');
  });

  test('a 400 that says the context is too long compacts once and retries instead of failing the run', async () => {
    env.model.setScript(script(6));
    const run = await env.client.start('unbudgeted', { prompt: 'Look up ORD-1 to ORD-4.' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/looked up/);
    const events = compactions(await run.eventsAfter(0));
    expect(events.map((e) => e.reason)).toContain('context_too_long');
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(4);
  });

  test('bad memory settings are refused when the agent is defined', () => {
    expect(() => defineAgent({ name: 'x', instructions: '', memory: { maxTokens: 0 } })).toThrow("Agent 'x': memory.maxTokens must be a positive integer.");
    expect(() => defineAgent({ name: 'x', instructions: '', memory: { maxTokens: 10, strategy: 'drop' as never } })).toThrow("memory.strategy 'drop' is not known");
  });
});
