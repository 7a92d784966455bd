import { ApplicationFailure } from '@temporalio/workflow';
import type { AgentDescriptor } from '../../common/agent';
import type { ResponseFormat } from '../../common/contracts/model-call';
import { FailureTypes } from '../../common/failures';
import type { AssistantMessage, ToolCall, ToolMessage } from '../../common/messages';
import type { FinalStatus } from '../../common/run';
import type { ToolSpec } from '../../common/tools';
import { FINAL_ANSWER_TOOL, finalAnswerToolSpec, responseFormatName, type CheckOutputInput } from '../../common/typed-output';
import { activities } from '../platform';
import type { Writing } from '../state';
import { apply } from '../effects';

/**
 * Typed answers (`defineAgent({ output })`): the model is asked for the agent's schema, a worker
 * that serves the agent checks what it answers with the agent's zod schema, and a wrong answer is
 * fed back with what is wrong until `maxRetries` are spent.
 */

/**
 * How a typed answer ended the loop: its text as the model wrote it (the run's `output`: the
 * reply's text, or the final-answer call's arguments as sent) and the value.
 */
export interface TypedEnd {
  status: FinalStatus;
  output: string;
  data: unknown;
}

/** The final-answer tool, offered with or without the agent's tools, when the answer is asked through it. */
export function answerTools(descriptor: AgentDescriptor): ToolSpec[] {
  return descriptor.output?.via === 'tool' ? [finalAnswerToolSpec(descriptor.output)] : [];
}

/** The response format of a model call, when the answer is asked through it. */
export function responseFormatOf(descriptor: AgentDescriptor): ResponseFormat | undefined {
  const output = descriptor.output;
  return output?.via === 'response_format' ? { name: responseFormatName(descriptor.name), schema: output.schema } : undefined;
}

/** The reply's call of the final-answer tool, for an agent that answers through it. */
export function finalAnswerCall(descriptor: AgentDescriptor, calls: ToolCall[]): ToolCall | undefined {
  return descriptor.output?.via === 'tool' ? calls.find((call) => call.name === FINAL_ANSWER_TOOL) : undefined;
}

function toolMessage(call: ToolCall, content: string, state: ToolMessage['state']): ToolMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content, state };
}

/** The final-answer call made beside other calls: it is refused, and the others run. */
export function finalAnswerNotAlone(call: ToolCall): ToolMessage {
  return toolMessage(call, `Error: call ${FINAL_ANSWER_TOOL} alone, after the results of your other calls are in; it was not taken.`, 'error');
}

/** The final-answer call given while a user message added meanwhile waits: the model answers again after reading it. */
export function answerSetAside(call: ToolCall): ToolMessage {
  return toolMessage(call, 'Not taken yet: the user added a message meanwhile. Read it, then answer again.', 'error');
}

async function checked(state: Writing<'context'>, answer: CheckOutputInput['answer']) {
  return activities.checkOutput.executeWithOptions(
    // On a worker that serves the agent (its zod schema); one that does not leaves it to another.
    { summary: `check the answer of ${state.agent}`, startToCloseTimeout: '30s', scheduleToCloseTimeout: '10 minutes', retry: { maximumInterval: '10s' } },
    [{ agent: state.agent, answer }],
  );
}

/**
 * The reply that would end the loop, as a typed answer: its text, or its final-answer call. What
 * fits ends the loop; what does not is fed back (a user message, or the call's error result) and
 * the loop goes on, until the retries are spent and the run fails saying what was wrong.
 * `lastChance`: the summary at the iteration limit, which is not fed back.
 */
export async function typedAnswer(state: Writing<'context'>, reply: AssistantMessage, status: FinalStatus, lastChance = false): Promise<TypedEnd | undefined> {
  const output = state.descriptor.output!;
  const call = finalAnswerCall(state.descriptor, reply.toolCalls ?? []);
  const verdict =
    output.via === 'tool' && !call
      ? { ok: false as const, problems: [`no answer was given: call the ${FINAL_ANSWER_TOOL} tool with your answer as its arguments`] }
      : await checked(state, call ? { arguments: call.arguments } : { text: reply.content ?? '' });
  if (verdict.ok) {
    if (call) state.messages.push(toolMessage(call, 'Answer taken.', 'success'));
    // The model's own text, not the value written out again: only the result changes, no command.
    return { status, output: call ? call.arguments : reply.content ?? '', data: verdict.value };
  }
  state.outputRetries += 1;
  apply(state, { events: [{ type: 'answer_refused', iteration: state.iterations, problems: verdict.problems, retry: state.outputRetries }] });
  if (lastChance || state.outputRetries > output.maxRetries) {
    throw ApplicationFailure.nonRetryable(
      `The model's answer does not fit the agent's output schema (${state.outputRetries} ${state.outputRetries === 1 ? 'try' : 'tries'}): ${verdict.problems.join('; ')}`,
      FailureTypes.invalidOutput,
    );
  }
  const feedback = `Your answer does not fit the required output schema:\n${verdict.problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again${call ? ` with a corrected ${FINAL_ANSWER_TOOL} call` : ' with only the corrected JSON'}.`;
  state.messages.push(call ? toolMessage(call, `Error: ${feedback}`, 'error') : { role: 'user', content: feedback });
  return undefined;
}
