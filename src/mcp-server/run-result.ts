import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRun } from '../client/agent-run';
import { describeRunFailure } from '../client/run-failure';

/** A run's end as a tool result: the answer as text, the figures as structured content; a failure as an error result. */
export async function runResult(run: AgentRun): Promise<CallToolResult> {
  try {
    const result = await run.result();
    return {
      content: [{ type: 'text', text: result.output }],
      structuredContent: {
        runId: run.workflowId,
        status: result.status,
        output: result.output,
        ...(result.data !== undefined ? { data: result.data } : {}),
        iterations: result.iterations,
        usage: result.usage,
        ...(result.cost !== undefined ? { cost: result.cost } : {}),
      },
    };
  } catch (error) {
    return { content: [{ type: 'text', text: describeRunFailure(run.workflowId, error) }], isError: true };
  }
}
