import { ScheduleAlreadyRunning, ScheduleNotFoundError as TemporalScheduleNotFound, type Client, type ScheduleSummary } from '@temporalio/client';
import { AGENT_NAME } from '../../common/search-attributes';
import { checkStartInputSize } from '../start-input-size';
import { AgentSchedule } from './agent-schedule';
import { temporalScheduleOptions } from './schedule-action';
import { ScheduleExistsError, ScheduleNotFoundError } from './schedule-errors';
import { checkedScheduleOptions, type AgentScheduleOptions } from './schedule-options';

/** A schedule in a list: its id, agent, next fire and whether it is paused. */
export interface AgentScheduleSummary {
  id: string;
  agent: string;
  /** The workflow it starts: agentWorkflow, or scheduledTurnWorkflow for a conversation schedule. */
  workflowType: string;
  paused: boolean;
  note?: string;
  nextFireTimes: Date[];
  recentWorkflowIds: string[];
}

const AGENT_WORKFLOW_TYPES = new Set(['agentWorkflow', 'scheduledTurnWorkflow']);

/** The schedules of agent runs over Temporal's schedule client (the AgentClient's `schedule`, `getSchedule`, `listSchedules`). */
export class AgentSchedules {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly webUiLink: (scheduleId: string) => string,
    private readonly maxPayloadBytes?: number,
  ) {}

  /**
   * Creates the schedule: options checked first (a bad cron or budget throws ScheduleOptionsError),
   * an id that exists throws ScheduleExistsError; either way nothing is created.
   */
  async create(agent: string, options: AgentScheduleOptions): Promise<AgentSchedule> {
    const checked = checkedScheduleOptions(options);
    const temporalOptions = temporalScheduleOptions(agent, checked, this.taskQueue);
    // Refused here as `start` refuses it: each fire would fail to start, out of sight.
    checkStartInputSize(agent, checked.id, temporalOptions.action.args?.[0], this.maxPayloadBytes);
    try {
      const handle = await this.client.schedule.create(temporalOptions);
      return new AgentSchedule(handle, this.webUiLink(handle.scheduleId));
    } catch (error) {
      if (error instanceof ScheduleAlreadyRunning) throw new ScheduleExistsError(checked.id, error);
      throw error;
    }
  }

  /** The schedule of that id; ScheduleNotFoundError when there is none or it does not start agent runs. */
  async get(id: string): Promise<AgentSchedule> {
    const handle = this.client.schedule.getHandle(id);
    const description = await handle.describe().catch((error: unknown) => {
      throw error instanceof TemporalScheduleNotFound ? new ScheduleNotFoundError(id, 'no schedule has that id', error) : error;
    });
    if (!AGENT_WORKFLOW_TYPES.has(description.action.workflowType)) throw new ScheduleNotFoundError(id, `it starts ${description.action.workflowType}, not agent runs`);
    return new AgentSchedule(handle, this.webUiLink(id));
  }

  /**
   * The schedules that start agent runs: those that carry the AgentName search attribute (set at
   * create) and start an agent workflow. Listing is eventually consistent: a schedule just created
   * may take a moment to appear.
   */
  async list(): Promise<AgentScheduleSummary[]> {
    const found: AgentScheduleSummary[] = [];
    for await (const summary of this.client.schedule.list()) {
      const agent = summary.typedSearchAttributes?.get(AGENT_NAME);
      if (agent === undefined || !summary.action || !AGENT_WORKFLOW_TYPES.has(summary.action.workflowType)) continue;
      found.push(summaryOf(summary, agent));
    }
    return found;
  }
}

function summaryOf(summary: ScheduleSummary, agent: string): AgentScheduleSummary {
  return {
    id: summary.scheduleId,
    agent,
    workflowType: summary.action!.workflowType,
    paused: summary.state.paused,
    ...(summary.state.note ? { note: summary.state.note } : {}),
    nextFireTimes: summary.info.nextActionTimes,
    recentWorkflowIds: summary.info.recentActions.map((result) => result.action.workflow.workflowId),
  };
}

