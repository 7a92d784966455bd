import { temporal } from '@temporalio/proto';
import { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentRun } from '../../src/client/agent-run';
import type { AgentEvent } from '../../src/common/events';
import type { AgentRunResult } from '../../src/common/run';
import { createChatModel } from '../../src/model/create-chat-model';
import { researcherAgent } from '../../src/demo/research-agents';
import { agentTool } from '../../src/toolkit/agent-tool';
import { defineAgent, type AgentDefinition } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { createWorker, type AgentWorker } from '../../src/worker/create-worker';
import { testConnection, uniqueTaskQueue, workflowBundle } from '../helpers/temporal-env';
import { REAL_MODEL_ENV } from './real-model-env';

const EventType = temporal.api.enums.v1.EventType;

/**
 * An agent as a small model on two cores needs it: temperature 0 (deterministic where the model
 * allows), replies bounded (a small model may repeat itself until its context is full), and fewer
 * iterations; its tools and rules unchanged.
 */
export function forSmallModel(agent: AgentDefinition): AgentDefinition {
  return { ...agent, maxIters: Math.min(agent.maxIters ?? 10, 4), model: { ...agent.model, temperature: 0, maxTokens: 384, timeout: '2 minutes', maximumAttempts: 2 } };
}

/** A lead with one sub-agent: the demo's researcher, as a small model needs it, as a child run. */
export const researchLead = forSmallModel(
  defineAgent({
    name: 'research-lead',
    instructions: 'You are a research lead. Give the topic to a researcher with the researcher tool, then answer in one sentence from what it found.',
    tools: [agentTool(forSmallModel(researcherAgent), { description: 'Give one topic to a researcher; it answers with what it found.' })],
    maxIters: 3,
  }),
);

/** What a customer's message asks for, as data: a typed answer the model gives through llama.cpp's JSON-schema response format. */
export const orderRequest = z.object({ order_id: z.string().min(1), wants: z.enum(['refund', 'tracking', 'other']) });
export const orderReader = forSmallModel(
  defineAgent({
    name: 'order-reader',
    instructions: "Read the customer's message. Give the order id it names and whether the customer wants a refund, tracking, or other.",
    output: orderRequest,
  }),
);

const bookCourier = defineTool({
  name: 'book_courier',
  description: 'Book a courier to collect a returned parcel. The warehouse books it and reports the pickup time.',
  input: z.object({ order_id: z.string().describe('The order id, e.g. ORD-2024-002') }),
  external: true,
});

/** An agent whose one tool runs outside the worker: the run waits for its result. */
export const returnsDesk = defineAgent({
  name: 'returns-desk',
  instructions: 'You arrange the collection of returned parcels. Use the book_courier tool, then tell the customer the pickup time.',
  tools: [bookCourier],
  maxIters: 4,
});

export interface RealModelEnv {
  client: AgentClient;
  worker: AgentWorker;
  stop(): Promise<void>;
}

/** A worker for these agents on the real model (tool calls written as text read as calls), and a client. */
export async function startRealModelEnv(agents: AgentDefinition[]): Promise<RealModelEnv> {
  const taskQueue = uniqueTaskQueue('real-model');
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  const model = process.env[REAL_MODEL_ENV.model]!;
  const worker = await createWorker({
    agents,
    connection,
    config: { taskQueue, defaultModel: model, namespace: 'default' },
    model: createChatModel({ baseURL: process.env[REAL_MODEL_ENV.baseURL]!, apiKey: 'local', defaultModel: model, textToolCallModels: ['*'] }),
    workflowBundle: workflowBundle(),
    log: () => undefined,
  });
  const running = worker.run();
  const client = await AgentClient.connect({ connection: await testConnection(), taskQueue });
  return {
    client,
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export interface Answers {
  approve?: boolean;
  /** The result submitted for an external call. */
  submit?: string;
}

export interface Outcome {
  result?: AgentRunResult;
  /** The run's failure, when it failed: its type and message. */
  failure?: { type?: string; message: string };
  events: AgentEvent[];
  workflowTaskFailed: number;
  /** Each model call: how long it took and the tokens it wrote. */
  modelCalls: { ms: number; completionTokens: number }[];
}

/**
 * Follows a run to its end, answering what waits as `answers` says, within `timeoutMs`; then reads
 * what the runtime must guarantee from its history, whatever the model did.
 */
export async function drive(client: AgentClient, run: AgentRun, answers: Answers, timeoutMs = 300_000): Promise<Outcome> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  const finished = run.result().then(
    (result) => ({ result }),
    (error: { cause?: { type?: string; message?: string }; message: string }) => ({ failure: { ...(error.cause?.type ? { type: error.cause.type } : {}), message: error.cause?.message ?? error.message } }),
  );
  void finished.then(() => (ended = true));
  while (!ended) {
    if (Date.now() > deadline) {
      // Ended here, so nothing of it outlives the test (its result's long poll included).
      await run.handle.terminate('the real-model test gave up on it').catch(() => undefined);
      await finished;
      throw new Error(`run ${run.workflowId} did not end within ${timeoutMs / 1000} s`);
    }
    const state = await run.state().catch(() => undefined);
    for (const call of state?.pending ?? []) {
      const target = client.get(call.workflowId ?? run.workflowId);
      if (call.kind === 'external') await target.submit(call.callId, answers.submit ?? 'done').catch(() => undefined);
      else if (answers.approve === false) await target.deny(call.callId, 'not now').catch(() => undefined);
      else await target.approve(call.callId).catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const end = await finished;
  const history = await run.handle.fetchHistory();
  const events = await run.eventsAfter(0).catch((): AgentEvent[] => []);
  const outcome = { ...end, events, workflowTaskFailed: (history.events ?? []).filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).length, modelCalls: modelCallsOf(history) };
  console.log(describeRun(run.workflowId, outcome, history));
  return outcome;
}

/** One line per run: how it ended, its model calls and what failed on the way (the tier's log, to read a slow or odd run by). */
function describeRun(workflowId: string, outcome: Outcome, history: temporal.api.history.v1.IHistory): string {
  const failed = (history.events ?? []).flatMap((event) => {
    const failure = event.activityTaskFailedEventAttributes?.failure ?? (event.activityTaskTimedOutEventAttributes ? { message: 'timed out' } : undefined);
    return failure ? [String(failure.message).slice(0, 120)] : [];
  });
  const seconds = outcome.modelCalls.map((call) => (call.ms / 1000).toFixed(1)).join(' ');
  const end = outcome.result ? `${outcome.result.status} after ${outcome.result.iterations} iteration(s)` : `failed ${outcome.failure?.type ?? ''}: ${outcome.failure?.message.slice(0, 160)}`;
  return `${workflowId}: ${end}; model calls (s): ${seconds || 'none'}; attempts failed: ${failed.length ? failed.join(' | ') : 'none'}`;
}

function modelCallsOf(history: temporal.api.history.v1.IHistory): Outcome['modelCalls'] {
  const events = history.events ?? [];
  const scheduled = new Map<number, number>();
  const started = new Map<number, number>();
  const calls: Outcome['modelCalls'] = [];
  const ms = (event: temporal.api.history.v1.IHistoryEvent) => Number(event.eventTime?.seconds ?? 0) * 1000 + Math.round((event.eventTime?.nanos ?? 0) / 1e6);
  for (const event of events) {
    const id = Number(event.eventId);
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel') scheduled.set(id, 1);
    const start = event.activityTaskStartedEventAttributes;
    if (start && scheduled.has(Number(start.scheduledEventId))) started.set(Number(start.scheduledEventId), ms(event));
    const done = event.activityTaskCompletedEventAttributes;
    if (done && started.has(Number(done.scheduledEventId))) {
      const payload = done.result?.payloads?.[0];
      const output = payload?.data ? (JSON.parse(Buffer.from(payload.data).toString('utf8')) as { usage?: { completionTokens?: number } }) : {};
      calls.push({ ms: ms(event) - started.get(Number(done.scheduledEventId))!, completionTokens: output.usage?.completionTokens ?? 0 });
    }
  }
  return calls;
}

/** What the runtime holds to whatever the model writes: a final status or a named failure, no failed workflow task, a result for every call. */
export function expectRuntimeHeld(outcome: Outcome): void {
  expect(outcome.workflowTaskFailed).toBe(0);
  if (outcome.result) {
    expect(['completed', 'max_iterations']).toContain(outcome.result.status);
    const calls = outcome.result.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls ?? [] : []));
    const answered = new Set(outcome.result.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
    expect(calls.filter((call) => !answered.has(call.id))).toEqual([]);
  } else {
    // A run may fail only as the runtime names it (say, the model's empty replies past the bound).
    expect(outcome.failure?.type).toMatch(/^(Agent|Model)\./);
  }
}

/** The figures the tier prints at its end: tool-call validity, time per model call, tokens per second. */
export const figures = { toolCalls: 0, validToolCalls: 0, modelCalls: [] as Outcome['modelCalls'] };

/** A call the runtime refused before running it: a tool that is not there, or arguments its schema does not take. */
const INVALID_CALL = /^Error: (Invalid arguments|Parameter validation failed|Tool not found|Unauthorized)/;

export function tally(outcome: Outcome): void {
  figures.modelCalls.push(...outcome.modelCalls);
  for (const message of outcome.result?.messages ?? []) {
    if (message.role !== 'tool') continue;
    figures.toolCalls += 1;
    if (!INVALID_CALL.test(message.content)) figures.validToolCalls += 1;
  }
}

export function describeFigures(): string {
  const calls = figures.modelCalls;
  const ms = calls.map((call) => call.ms).sort((a, b) => a - b);
  const median = ms.length > 0 ? ms[Math.floor(ms.length / 2)]! : 0;
  const tokens = calls.reduce((sum, call) => sum + call.completionTokens, 0);
  const seconds = calls.reduce((sum, call) => sum + call.ms, 0) / 1000;
  return (
    `${process.env[REAL_MODEL_ENV.model]}: ${figures.validToolCalls}/${figures.toolCalls} tool calls valid; ` +
    `${calls.length} model calls, median ${(median / 1000).toFixed(1)} s each; ${(tokens / Math.max(seconds, 0.001)).toFixed(1)} tokens/s written over the calls' whole time`
  );
}
