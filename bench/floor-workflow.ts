import { condition, defineSignal, proxyActivities, proxySinks, setHandler, type Sinks } from '@temporalio/workflow';

/** A message of the hand-written loop, in the shape the OpenAI chat API takes. */
export type LoopMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface LoopTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface FloorActivities {
  noop(): Promise<void>;
  /** One chat completion through the `openai` client, on the same transport as the worker's model calls. */
  loopModel(request: { model: string; messages: LoopMessage[]; tools: LoopTool[] }): Promise<Extract<LoopMessage, { role: 'assistant' }>>;
  /** The hand-written loop's tool: does nothing, as the agent's `noop`. */
  loopTool(name: string, args: string): Promise<string>;
}

const { noop, loopModel, loopTool } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/**
 * The fair floor of one iteration: a bare workflow running as many no-op activities in sequence as
 * one agent iteration must record: model, tool, model.
 */
export async function floorWorkflow(): Promise<void> {
  await noop();
  await noop();
  await noop();
}

/** The floor for throughput: `count` no-op activities in sequence, about the activities of a multi-iteration run. */
export async function floorActivitiesWorkflow(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await noop();
}

export interface HandWrittenLoopInput {
  model: string;
  instructions: string;
  prompt: string;
  tools: LoopTool[];
}

/**
 * The fair floor of an agent loop: the ReAct loop a user writes by hand on Temporal with the same
 * stack — the conversation in the workflow, each model call an activity through the `openai` client
 * with the whole conversation in its input, each tool call an activity — and nothing else (no
 * description of the agent, checks, events, budgets or streams). It does what the agent's
 * iterations must do and no more: the no-op floors above leave out the model request itself.
 */
export async function handWrittenLoopWorkflow(input: HandWrittenLoopInput): Promise<string> {
  const messages: LoopMessage[] = [
    { role: 'system', content: input.instructions },
    { role: 'user', content: input.prompt },
  ];
  for (;;) {
    const reply = await loopModel({ model: input.model, messages, tools: input.tools });
    messages.push(reply);
    if (!reply.tool_calls?.length) return reply.content ?? '';
    for (const call of reply.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: await loopTool(call.function.name, call.function.arguments) });
  }
}

export const releaseSignal = defineSignal('release');

export interface BenchFloorSinks extends Sinks {
  benchFloor: { parked(): void };
}

/** The floor for a parked run: a bare workflow that waits for one signal, as an agent run waits for an approval. */
export async function waitingFloorWorkflow(): Promise<void> {
  let released = false;
  setHandler(releaseSignal, () => {
    released = true;
  });
  proxySinks<BenchFloorSinks>().benchFloor.parked();
  await condition(() => released);
}
