import { NexusOperationFailure } from '@temporalio/common';
import { ActivityFailure, CancellationScope, CancelledFailure, createNexusServiceClient, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import type { ServiceDefinition } from 'nexus-rpc';
import type { ToolCallResult } from '../../common/contracts/tool-calls';
import type { ToolCall } from '../../common/messages';
import type { NexusToolSpec } from '../../common/tools';
import { truncateText } from '../../common/truncate-text';
import { beginRun } from '../calls';
import { activities, describeStepFailure } from '../platform';
import type { CheckedNexusOutput } from '../../common/contracts/nexus-output';
import type { Reading } from '../state';

/** An operation's whole life, its retries included, when the tool names none. */
export const DEFAULT_NEXUS_TOOL_TIMEOUT = '10 minutes';

/** The result as the model reads it, like a worker tool's: text as is, anything else as JSON, cut to the agent's limit. */
function contentOf(value: unknown, maxChars: number): string {
  const text = typeof value === 'string' ? value : value === undefined ? 'Done' : (JSON.stringify(value) ?? String(value));
  return truncateText(text, maxChars);
}

function failureText(error: NexusOperationFailure): string {
  if (error.cause instanceof TimeoutFailure) return 'it did not finish in time';
  if (error.cause instanceof CancelledFailure) return 'it was cancelled';
  // The handler's own failure (an ApplicationFailure, a HandlerError) is the cause; its cause says why.
  const cause = error.cause;
  const inner = (cause?.cause as Error | undefined)?.message;
  return inner && inner !== cause?.message ? `${cause?.message}: ${inner}` : (cause?.message ?? error.message);
}

/**
 * The result checked with the tool's `output` schema, on a worker that serves the agent (one that
 * does not leaves it to another); no such worker within the schedule is a problem the model reads.
 */
async function checkedOutput(state: Reading, call: ToolCall, output: unknown): Promise<CheckedNexusOutput> {
  try {
    return await activities.checkNexusOutput.executeWithOptions(
      { summary: `check the result of ${call.name}`, startToCloseTimeout: '30s', scheduleToCloseTimeout: '10 minutes', retry: { maximumInterval: '10s' } },
      [{ agent: state.agent, tool: call.name, output }],
    );
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return { ok: false, problems: [`the result could not be checked: ${describeStepFailure(error)}`] };
  }
}

/**
 * Starts the operation a nexusTool names (only workflow code may start one; the server retries its
 * start and delivers its result) and hands back its result as the call's. A failed or timed-out
 * operation (or one cancelled by its own side) is an error result the model reads; only the run's own
 * cancellation ends the run, and it cancels the operation on the way (Temporal's WAIT_CANCELLATION_COMPLETED).
 */
export async function runNexusOperation(state: Reading, call: ToolCall, input: unknown, spec: NexusToolSpec): Promise<ToolCallResult> {
  beginRun(state, call.id, input);
  // The workflow needs only the names: the definition (and its code) stays with the worker.
  const service = { name: spec.service, operations: { [spec.operation]: { name: spec.operation } } } as unknown as ServiceDefinition;
  const client = createNexusServiceClient({ endpoint: spec.endpoint, service });
  let output: unknown;
  try {
    output = await client.executeOperation(spec.operation as never, input as never, {
      scheduleToCloseTimeout: spec.timeout ?? DEFAULT_NEXUS_TOOL_TIMEOUT,
      summary: `tool ${call.name}`,
    });
  } catch (error) {
    if (!(error instanceof NexusOperationFailure) || CancellationScope.current().consideredCancelled) throw error;
    return { content: `Error: Tool execution failed: the Nexus operation ${spec.service}/${spec.operation} failed: ${failureText(error)}`, state: 'error' };
  }
  if (!spec.checksOutput) return { content: contentOf(output, state.descriptor.maxResultChars), state: 'success' };
  const checked = await checkedOutput(state, call, output);
  if (checked.ok) return { content: contentOf(checked.value, state.descriptor.maxResultChars), state: 'success' };
  const problems = checked.problems.map((problem) => `- ${problem}`).join('\n');
  const refused = `Error: the Nexus operation ${spec.service}/${spec.operation} answered with a result the tool's output schema refuses:\n${problems}`;
  return { content: truncateText(refused, state.descriptor.maxResultChars), state: 'error' };
}
