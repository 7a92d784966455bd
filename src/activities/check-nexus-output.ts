import { ApplicationFailure } from '@temporalio/common';
import type { CheckedNexusOutput, CheckNexusOutputInput } from '../common/contracts/nexus-output';
import type { ServedAgents } from './served-agent';

/**
 * A nexusTool's result checked with the tool's own `output` schema (the workflow cannot run it), on
 * a worker that serves the agent.
 */
export function checkNexusOutputActivity(agents: ServedAgents) {
  return async function checkNexusOutput(input: CheckNexusOutputInput): Promise<CheckedNexusOutput> {
    const tool = agents.require(input.agent).toolkit.get(input.tool);
    // The run was described by a worker whose tool has an output schema: one of those checks it.
    if (!tool?.checkOutput) throw ApplicationFailure.retryable(`Tool '${input.tool}' of agent '${input.agent}' has no output schema on this worker, but the run was described with one.`);
    return tool.checkOutput(input.output);
  };
}
