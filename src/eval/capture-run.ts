import { BUDGET_TOOL } from '../common/budget';
import type { AgentEvent } from '../common/events';
import type { Message, ToolMessage } from '../common/messages';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { regexOf } from './arg-matchers';
import { callsOf } from './run-calls';
import { FINAL_STATUSES, type EvalAnswer, type EvalCase, type EvalSuite, type FinalStatusName, type RecordedCall } from './suite-schema';

const PAGE = 200;

/** Every message of the run, read page by page (tool messages hold the tools' full results). */
async function allMessages(run: AgentRun): Promise<Message[]> {
  const first = await run.messages({ from: 0, to: PAGE });
  const messages = [...first.messages];
  for (let from = first.to; from < first.total; from += PAGE) messages.push(...(await run.messages({ from, to: from + PAGE })).messages);
  return messages;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The arguments as matchers of exactly themselves: a string that reads as a `/regex/` becomes one that matches only that text. */
function exactly(value: unknown): unknown {
  if (typeof value === 'string') return regexOf(value) ? `/^${escapeRegex(value)}$/` : value;
  if (Array.isArray(value) || value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exactly(inner)]));
}

function whenOf(input: unknown): Pick<EvalAnswer, 'when'> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? { when: exactly(input) as Record<string, unknown> } : {};
}

/** The answers people gave, in the order they gave them: approvals (edited or not), denials, submitted results, budget allowances. */
function answersOf(events: readonly AgentEvent[], results: ReadonlyMap<string, ToolMessage>): EvalAnswer[] {
  const asked = new Map<string, unknown>();
  const raised = new Map<string, unknown>();
  for (const event of events) {
    if (event.type === 'permission_requested' || event.type === 'external_requested') asked.set(event.callId, event.input);
    if (event.type === 'budget_raised') raised.set(event.callId, event.allowed);
  }
  const answers: EvalAnswer[] = [];
  for (const event of events) {
    if (event.type === 'permission_decided' && event.by === 'user') {
      const when = whenOf(asked.get(event.callId));
      if (event.tool === BUDGET_TOOL) {
        const allowed = raised.get(event.callId);
        answers.push(event.behavior === 'allow' ? { action: 'allow_budget', ...(allowed !== undefined ? { input: allowed } : {}) } : { tool: BUDGET_TOOL, action: 'deny', reason: event.reason });
      } else if (event.behavior === 'allow') {
        answers.push(event.input !== undefined ? { tool: event.tool, ...when, action: 'edit', input: event.input } : { tool: event.tool, ...when, action: 'approve' });
      } else {
        answers.push({ tool: event.tool, ...when, action: 'deny', ...(event.reason ? { reason: event.reason } : {}) });
      }
    }
    if (event.type === 'external_submitted') {
      const result = results.get(event.callId);
      answers.push({ tool: event.tool, ...whenOf(asked.get(event.callId)), action: 'submit', output: result?.content ?? '', ...(event.isError ? { isError: true } : {}) });
    }
  }
  return answers;
}

/** Every call a tool ran in, with the input it ran with and the full result its message holds. */
function recordingOf(events: readonly AgentEvent[], results: ReadonlyMap<string, ToolMessage>): RecordedCall[] {
  const external = new Set(events.flatMap((event) => (event.type === 'external_requested' ? [event.callId] : [])));
  // The input a tool ran with, when its check read the model's arguments into another (see tool_call_finished).
  const ranWith = new Map(events.flatMap((event) => (event.type === 'tool_call_finished' && event.input !== undefined ? [[event.callId, event.input] as const] : [])));
  const recorded: RecordedCall[] = [];
  for (const event of events) {
    if (event.type !== 'tool_call_started' || external.has(event.callId)) continue;
    const message = results.get(event.callId);
    if (!message || (message.state !== 'success' && message.state !== 'error')) continue;
    recorded.push({
      tool: event.tool,
      input: ranWith.has(event.callId) ? ranWith.get(event.callId) : event.input,
      result: { content: message.content, ...(message.state === 'error' ? { isError: true } : {}), ...(message.blocks ? { blocks: message.blocks as Record<string, unknown>[] } : {}) },
    });
  }
  return recorded;
}

/** How the run ended: its last run_finished, or a conversation's last turn. */
function finalStatus(events: readonly AgentEvent[]): FinalStatusName | undefined {
  const ends = events.flatMap((event) => (event.type === 'run_finished' || event.type === 'turn_finished' ? [event.status as string] : []));
  const final = ends.flatMap((ended) => FINAL_STATUSES.filter((status) => status === ended));
  return final[final.length - 1];
}

export interface CapturedRun {
  suite: EvalSuite;
  /** The run's agent and how many calls and answers were captured, for a line to the person. */
  agent: string;
  calls: number;
  answers: number;
}

/**
 * A finished run as an eval case: its prompt (a conversation's messages as turns), the answers
 * people gave, the tools it called in order and its final status as expectations, and a recording
 * of every tool call with its full result, which the case's tools answer from when it runs.
 */
export async function captureRun(client: AgentClient, workflowId: string, agentsModule?: string): Promise<CapturedRun> {
  const run = client.get(workflowId);
  const { status } = await run.execution();
  if (status === 'RUNNING') throw new Error(`run ${workflowId} has not finished: capture it once it has ended`);
  const state = await run.state();
  const events = await run.eventsAfter(0);
  const messages = await allMessages(run);
  const results = new Map(messages.filter((message): message is ToolMessage => message.role === 'tool').map((message) => [message.toolCallId, message]));
  const turnTexts = events.flatMap((event) => (event.type === 'turn_started' ? [event.text] : []));
  const prompt = messages.find((message) => message.role === 'user')?.content;
  const turns = turnTexts.length > 0 ? turnTexts : prompt ? [prompt] : [];
  if (turns.length === 0) throw new Error(`run ${workflowId} has no user message to replay`);
  const answers = answersOf(events, results);
  const recording = recordingOf(events, results);
  const order = callsOf(events).map((call) => call.tool);
  const ended = finalStatus(events);
  const evalCase: EvalCase = {
    name: `captured ${workflowId}`,
    agent: state.agent,
    turns,
    ...(answers.length > 0 ? { answers } : {}),
    recording,
    expect: { ...(order.length > 0 ? { order } : {}), ...(ended ? { status: ended } : {}) },
  };
  return { suite: { ...(agentsModule ? { agents: agentsModule } : {}), cases: [evalCase] }, agent: state.agent, calls: recording.length, answers: answers.length };
}
