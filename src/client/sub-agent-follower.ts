import type { AgentEvent } from '../common/events';

/** An event of a sub-agent run (at `depth` below the run being watched), as `AgentRun.updates({ subAgents: true })` gives it. */
export interface SubAgentUpdate {
  type: 'subagent_event';
  workflowId: string;
  depth: number;
  event: AgentEvent;
}

type EventsOf = (workflowId: string, afterSeq: number) => Promise<AgentEvent[]>;

/**
 * Follows the sub-agent runs a watched run starts, and theirs, by their `events` queries. A
 * child's events come before the parent's `subagent_finished` for it, so the output reads in order.
 */
export class SubAgentFollower {
  private readonly followed = new Map<string, { after: number; depth: number }>();

  constructor(private readonly eventsOf: EventsOf) {}

  /** The watched run's own event: sub-agents it starts are followed from now on. */
  async beforeOwnEvent(event: AgentEvent): Promise<SubAgentUpdate[]> {
    if (event.type === 'subagent_started') this.follow(event.workflowId, 1);
    // What led to the wait (or the end) is shown before it.
    if (event.type === 'subagent_waiting') return this.drain(event.workflowId);
    if (event.type !== 'subagent_finished') return [];
    const rest = await this.drain(event.workflowId);
    this.forget(event.workflowId);
    return rest;
  }

  /** New events of every followed run. */
  async poll(): Promise<SubAgentUpdate[]> {
    const updates: SubAgentUpdate[] = [];
    for (const [id, entry] of [...this.followed]) if (entry.depth === 1) updates.push(...(await this.drain(id)));
    return updates;
  }

  private follow(workflowId: string, depth: number): void {
    if (!this.followed.has(workflowId)) this.followed.set(workflowId, { after: 0, depth });
  }

  private forget(workflowId: string): void {
    for (const id of [...this.followed.keys()]) if (id === workflowId || id.startsWith(`${workflowId}/`)) this.followed.delete(id);
  }

  private async drain(workflowId: string): Promise<SubAgentUpdate[]> {
    const entry = this.followed.get(workflowId);
    if (!entry) return [];
    let batch: AgentEvent[];
    try {
      batch = await this.eventsOf(workflowId, entry.after);
    } catch {
      // Not started yet, or its workers are busy: the next poll asks again.
      return [];
    }
    const updates: SubAgentUpdate[] = [];
    for (const event of batch) {
      entry.after = event.seq;
      if (event.type === 'subagent_waiting') updates.push(...(await this.drain(event.workflowId)));
      if (event.type === 'subagent_finished') {
        updates.push(...(await this.drain(event.workflowId)));
        this.forget(event.workflowId);
      }
      updates.push({ type: 'subagent_event', workflowId, depth: entry.depth, event });
      if (event.type === 'subagent_started') this.follow(event.workflowId, entry.depth + 1);
    }
    for (const [id, child] of [...this.followed]) {
      if (child.depth === entry.depth + 1 && id.startsWith(`${workflowId}/`)) updates.push(...(await this.drain(id)));
    }
    return updates;
  }
}
