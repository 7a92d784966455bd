import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { decodePayload } from '../decode-payload';

/** How a run was started, as its latest execution's first history event recorded it. */
export interface RecordedStart {
  workflowType: string;
  taskQueue: string;
  /** The start input (the agent's or the conversation's), decoded with the client's codec. */
  input: Record<string, unknown>;
}

/**
 * Read from the first event of the run's newest execution (one page of one event): the input the
 * run was started (or continued as new) with, so a fork starts with the same runtime context,
 * limits and rules without a second copy kept anywhere.
 */
export async function readRecordedStart(handle: WorkflowHandle): Promise<RecordedStart> {
  const { client } = handle;
  const described = await client.workflowService.describeWorkflowExecution({ namespace: client.options.namespace, execution: { workflowId: handle.workflowId } });
  const execution = described.workflowExecutionInfo?.execution ?? { workflowId: handle.workflowId };
  const history = await client.workflowService.getWorkflowExecutionHistory({ namespace: client.options.namespace, execution, maximumPageSize: 1 });
  const started: temporal.api.history.v1.IWorkflowExecutionStartedEventAttributes | null | undefined = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  const payload = started?.input?.payloads?.[0];
  if (!started || !payload) throw new Error(`run ${handle.workflowId}: its history does not start with its input`);
  const input = await decodePayload(client, payload);
  if (!input || typeof input !== 'object') throw new Error(`run ${handle.workflowId}: its start input is not an object`);
  return {
    workflowType: started.workflowType?.name ?? described.workflowExecutionInfo?.type?.name ?? '',
    taskQueue: started.taskQueue?.name ?? '',
    input: input as Record<string, unknown>,
  };
}
