import { WorkflowNotFoundError } from '@temporalio/client';
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { AgentClient } from '../client/agent-client';
import { runResult } from './run-result';
import { taskOfRun } from './run-task';

/** The id prefix of runs started as MCP tasks, so `tasks/list` finds them. */
export const MCP_RUN_PREFIX = 'mcp-';

/**
 * The MCP tasks of this server are Temporal runs: a task id is a workflow id, and every answer is
 * read from Temporal. Nothing lives in the server process, so a task outlives the connection and
 * the process that created it: another server process answers for it the same way. Tasks are not
 * bound to a session for the same reason: whoever reaches the server may read any run's task
 * (see the README on securing the HTTP mode).
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
      description = await run.handle.describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
    const temporalStatus = description.status.name;
    // A run no worker answers for just now is still working; its task says so without details.
    const state = temporalStatus === 'RUNNING' ? await run.state().catch(() => undefined) : undefined;
    return taskOfRun({
      workflowId: taskId,
      temporalStatus,
      startTime: description.startTime,
      ...(description.closeTime ? { closeTime: description.closeTime } : {}),
      ...(state ? { state } : {}),
    });
  }

  async getTaskResult(taskId: string): Promise<Result> {
    return runResult(this.client.get(taskId));
  }

  /** The run keeps its own result: there is nothing to store. */
  async storeTaskResult(): Promise<void> {}

  /** `tasks/cancel` cancels the run; other status changes come from the run itself. */
  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status === 'cancelled') await this.client.get(taskId).cancel();
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    const runs = await this.client.list({ query: `WorkflowId STARTS_WITH '${MCP_RUN_PREFIX}'`, limit: 100 });
    return { tasks: runs.map((run) => taskOfRun({ ...run, temporalStatus: run.temporalStatus })) };
  }
}
