import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

/** What Temporal says of a run's execution, read without decoding its memo. */
export interface RunExecution {
  /** `RUNNING`, `COMPLETED`, `CONTINUED_AS_NEW`, … */
  status: string;
  startTime?: Date;
  closeTime?: Date;
  raw: temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;
}

/** `RUNNING`, `COMPLETED`, `CANCELLED`, … as the SDK names a workflow's status (the protocol spells it CANCELED). */
export function workflowStatusName(code: temporal.api.enums.v1.WorkflowExecutionStatus | null | undefined): string {
  const name = (temporal.api.enums.v1.WorkflowExecutionStatus[code ?? 0] ?? 'UNSPECIFIED').replace(/^WORKFLOW_EXECUTION_STATUS_/, '');
  return name === 'CANCELED' ? 'CANCELLED' : name;
}

/**
 * The run's execution as the server describes it. Unlike the SDK's describe(), the memo is not
 * decoded: a run's memo (what it waits on) may be encrypted with a key this client lacks, and
 * nothing here needs it.
 */
export async function describeExecution(handle: WorkflowHandle): Promise<RunExecution> {
  let raw: temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;
  try {
    raw = await handle.client.workflowService.describeWorkflowExecution({ namespace: handle.client.options.namespace, execution: { workflowId: handle.workflowId } });
  } catch (error) {
    if ((error as { code?: number }).code === 5) throw new WorkflowNotFoundError(`Workflow ${handle.workflowId} not found`, handle.workflowId, undefined);
    throw error;
  }
  const info = raw.workflowExecutionInfo;
  const closeTime = optionalTsToDate(info?.closeTime);
  const startTime = optionalTsToDate(info?.startTime);
  return { status: workflowStatusName(info?.status), ...(startTime ? { startTime } : {}), ...(closeTime ? { closeTime } : {}), raw };
}
