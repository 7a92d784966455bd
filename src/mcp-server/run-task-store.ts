import { WorkflowNotFoundError } from '@temporalio/client';
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { ErrorCode, McpError, type Request, type RequestId, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { runResult } from './run-result';
import { taskOfRun } from './run-task';

/**
 * The one part of Temporal's description that says a cancellation was requested while the run
 * still runs. It answers `tasks/get` from any server process the same way, as a task is a run and
 * nothing of it lives here; reading the history for a WorkflowExecutionCancelRequested event would
 * say the same at the cost of a history read per `tasks/get`, and waiting for the run to close would
 * hang on a run no worker is taking. (A server too old to report it leaves such a task `working`
 * until its run closes.)
 */
const extendedInfo = z.object({ workflowExtendedInfo: z.object({ cancelRequested: z.boolean().nullish() }).nullish() });

/** The id prefix of runs started as MCP tasks, so `tasks/list` finds them. */
export const MCP_RUN_PREFIX = 'mcp-';

/**
 * The MCP tasks of this server are Temporal runs: a task id is a workflow id, and every answer is
 * read from Temporal. Nothing lives in the server process, so a task outlives the connection and
 * the process that created it: another server process answers for it the same way. Tasks are not
 * bound to a session for the same reason: whoever reaches the server may read any run's task
 * (see docs/mcp-server.md on securing the HTTP mode).
 */
export class RunTaskStore implements TaskStore {
  constructor(
    private readonly client: AgentClient,
    /** Starts the run a task-augmented tools/call asks for; returns its workflow id. */
    private readonly startRun: (request: Request) => Promise<string>,
  ) {}

  async createTask(_options: CreateTaskOptions, _requestId: RequestId, request: Request): Promise<Task> {
    const workflowId = await this.startRun(request);
    return (await this.getTask(workflowId))!;
  }

  async getTask(taskId: string): Promise<Task | null> {
    const run = this.client.get(taskId);
    let description;
    try {
      description = await run.execution();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
    const temporalStatus = description.status;
    const cancelRequested = extendedInfo.safeParse(description.raw).data?.workflowExtendedInfo?.cancelRequested === true;
    // A run no worker answers for just now is still working; its task says so without details.
    const state = temporalStatus === 'RUNNING' && !cancelRequested ? await run.state().catch(() => undefined) : undefined;
    return taskOfRun({
      workflowId: taskId,
      temporalStatus,
      cancelRequested,
      startTime: description.startTime ?? new Date(0),
      ...(description.closeTime ? { closeTime: description.closeTime } : {}),
      ...(state ? { state } : {}),
    });
  }

  async getTaskResult(taskId: string): Promise<Result> {
    return runResult(this.client.get(taskId));
  }

  /** The run keeps its own result: there is nothing to store. */
  async storeTaskResult(): Promise<void> {}

  /**
   * `tasks/cancel` requests the run's cancellation; other status changes come from the run itself.
   * From then on the task is `cancelled` (getTask), also for a run that is still stopping.
   */
  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') return;
    try {
      await this.client.get(taskId).cancel();
    } catch (error) {
      // Closed between the SDK's terminal check and the request: the spec's error for a finished task.
      if (error instanceof WorkflowNotFoundError) throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task ${taskId}: its run has already ended`);
      throw error;
    }
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    const runs = await this.client.list({ query: `WorkflowId STARTS_WITH '${MCP_RUN_PREFIX}'`, limit: 100 });
    return { tasks: runs.map((run) => taskOfRun({ ...run, temporalStatus: run.temporalStatus })) };
  }
}
