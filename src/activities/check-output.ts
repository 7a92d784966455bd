import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { CheckedOutput, CheckOutputInput } from '../common/typed-output';
import { answerOfFinalCall } from '../common/typed-output';
import { answerJson, checkAnswer } from '../toolkit/typed-answer';
import type { ServedAgents } from './served-agent';

/**
 * The model's answer checked with the agent's own zod schema (refinements included, which JSON
 * Schema cannot say), on a worker that serves the agent.
 */
export function checkOutputActivity(agents: ServedAgents) {
  return async function checkOutput(input: CheckOutputInput): Promise<CheckedOutput> {
    const agent = agents.require(input.agent);
    const output = agent.definition.output;
    // The run was described by a worker whose module gives the agent an output schema: one of those checks it.
    if (!output) throw ApplicationFailure.retryable(`Agent '${input.agent}' has no output schema on this worker, but the run was described with one.`, FailureTypes.outputSchemaMissing);
    const json = answerJson('text' in input.answer ? input.answer.text : input.answer.arguments);
    if (!json.ok) return { ok: false, problems: [json.problem] };
    return checkAnswer(output.schema, 'text' in input.answer ? json.value : answerOfFinalCall(agent.descriptor.output!.schema, json.value));
  };
}
