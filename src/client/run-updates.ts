import type { AgentEvent } from '../common/events';
import type { StreamItem } from './stream/stream-items';

/**
 * The text a model call of the run has written so far, as `AgentRun.updates()` gives it; it has
 * no `seq` because it is not an event.
 */
export interface PartialTextUpdate {
  type: 'partial_text';
  /** The model of the call, as its `model_call_started` named it. */
  model: string;
  iteration: number;
  /** The call's attempt: a new one (its worker died, or added input interrupted it) starts its text over. */
  attempt: number;
  /** The whole text of this attempt so far, not the piece just added. */
  text: string;
}

/** An event of a sub-agent run (at `depth` below the run being watched), as `AgentRun.updates({ subAgents: true })` gives it. */
export interface SubAgentUpdate {
  type: 'subagent_event';
  workflowId: string;
  depth: number;
  event: AgentEvent;
}

/**
 * An event of the run, the partial text of its model call in flight (not an event: no `seq`), or
 * (with `subAgents: true`) an event of one of its sub-agent runs.
 */
export type RunUpdate = AgentEvent | PartialTextUpdate | SubAgentUpdate;

/**
 * The run's stream read as updates: its events, each text delta of its own model calls as the
 * call's whole text so far (with `partialText`), and its sub-agents' events (with `subAgents`).
 * Tool-call deltas, quota waits and the sub-agents' text are left out.
 */
export async function* updatesOf(items: AsyncIterable<StreamItem>, options: { partialText: boolean; subAgents: boolean }): AsyncGenerator<RunUpdate> {
  const models = new Map<number, string>();
  let written: { iteration: number; attempt: number; text: string } | undefined;
  for await (const item of items) {
    if (item.depth > 0) {
      if (options.subAgents && item.type === 'event') yield { type: 'subagent_event', workflowId: item.workflowId, depth: item.depth, event: item.event };
      continue;
    }
    if (item.type === 'event') {
      const { event } = item;
      if (event.type === 'model_call_started') models.set(event.iteration, event.model);
      if (event.type === 'model_call_finished' || event.type === 'model_call_interrupted') {
        models.delete(event.iteration);
        if (written?.iteration === event.iteration) written = undefined;
      }
      yield event;
      continue;
    }
    if (item.type === 'model_call_restarted') {
      written = undefined;
      continue;
    }
    if (item.type !== 'text_delta' || !options.partialText || item.text === '') continue;
    if (written?.iteration !== item.iteration || written.attempt !== item.attempt) written = { iteration: item.iteration, attempt: item.attempt, text: '' };
    written.text += item.text;
    yield { type: 'partial_text', model: models.get(item.iteration) ?? '', iteration: item.iteration, attempt: item.attempt, text: written.text };
  }
}
