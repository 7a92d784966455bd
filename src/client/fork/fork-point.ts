import type { AgentEvent } from '../../common/events';
import { NOT_RUN_BEFORE_FORK, type ForkStart } from '../../common/fork';
import { addUsage, emptyUsage, type AssistantMessage, type Message, type ToolMessage } from '../../common/messages';
import type { QueuedInput } from '../../common/run';

/** A fork that cannot start: said before anything starts. */
export class ForkRefusedError extends Error {
  override readonly name = 'ForkRefusedError';
}

/** What a run recorded, as a fork reads it. */
export interface RecordedRun {
  workflowId: string;
  agent: string;
  events: AgentEvent[];
  messages: Message[];
  /** The session rules it started with (a sub-agent's from its parent). */
  startingRules?: string[];
}

/** Events that say a call of the step being forked ended: its result is then in the conversation. */
function ended(event: AgentEvent, callId: string): boolean {
  switch (event.type) {
    case 'tool_call_finished':
    case 'external_submitted':
    case 'subagent_finished':
      return event.callId === callId;
    case 'permission_decided':
      return event.callId === callId && event.behavior !== 'allow';
    default:
      return false;
  }
}

/** Events that say a call left the workflow's own hands (it ran, waited or went to a worker). */
function began(event: AgentEvent, callId: string): boolean {
  switch (event.type) {
    case 'tool_call_started':
    case 'permission_requested':
    case 'external_requested':
    case 'subagent_started':
      return event.callId === callId;
    default:
      return false;
  }
}

const STEP_OVER = new Set<AgentEvent['type']>(['iteration_started', 'model_call_started', 'run_finished', 'turn_finished', 'answer_refused']);

/** Text as an event's preview shows it (whitespace flattened, cut with an ellipsis). */
function previewMatches(preview: string, text: string): boolean {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = preview.endsWith('…') ? preview.slice(0, -1) : preview;
  return preview.endsWith('…') ? flat.startsWith(cut) : flat === cut;
}

/** The whole text of a user message an event previewed, from the messages after `from`. */
function userText(messages: Message[], from: number, preview: string, used: Set<number>): string {
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'user' && !used.has(i) && previewMatches(preview, message.content)) {
      used.add(i);
      return message.content;
    }
  }
  if (!preview.endsWith('…')) return preview;
  throw new ForkRefusedError(`the whole text of the message "${preview}" is not in the run's conversation yet: fork at an earlier event`);
}

function assistantIndexes(messages: Message[]): number[] {
  return messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
}

/**
 * The results of the forked step's calls as they stood at `at`: a call that had ended by then, or
 * that the workflow answered itself (no event began it), keeps its recorded result; a call that
 * began later or had not ended is answered as not run.
 */
function stepResults(record: RecordedRun, reply: AssistantMessage, index: number, later: AgentEvent[], upTo: AgentEvent[]): ToolMessage[] {
  const stepOver = upTo.some((event) => STEP_OVER.has(event.type));
  const results = record.messages.slice(index + 1).filter((m): m is ToolMessage => m.role === 'tool');
  return (reply.toolCalls ?? []).map((call) => {
    const recorded = results.find((m) => m.toolCallId === call.id);
    const answeredByRun = !later.some((event) => began(event, call.id));
    const keep = stepOver || upTo.some((event) => ended(event, call.id)) || (answeredByRun && recorded !== undefined);
    if (!keep) return { role: 'tool', toolCallId: call.id, name: call.name, content: NOT_RUN_BEFORE_FORK, state: 'cancelled' };
    if (!recorded) {
      throw new ForkRefusedError(
        `call ${call.id} (${call.name}) had ended by the fork point, but its result enters the conversation only when its step ends: fork at an event before the call started, or after the step`,
      );
    }
    return recorded;
  });
}

/**
 * The conversation of a recorded run as it stood after its event `at` (0: before any), as a fork
 * starts from it: the messages up to the model reply last finished by then, that reply's calls
 * answered as they stood (a call that had not ended is answered as not run), the turns and added
 * inputs seen by then, the spend of the model calls and sub-agents finished by then, the tool
 * groups and session rules of that moment. Refused, naming why, when `at` is not one of the
 * events the run keeps.
 */
export function forkStartAt(record: RecordedRun, at: number): ForkStart {
  if (!Number.isInteger(at) || at < 0) throw new ForkRefusedError(`the fork point must be an event's seq (a whole number from 0), not ${at}`);
  const events = [...record.events].sort((a, b) => a.seq - b.seq);
  const last = events.at(-1)?.seq ?? 0;
  if (at > last) throw new ForkRefusedError(`run ${record.workflowId} has no event ${at}: its events go up to ${last}`);
  const first = events[0]?.seq ?? 1;
  if (at > 0 && at < first) {
    throw new ForkRefusedError(`run ${record.workflowId} keeps its newest events only (from ${first}): fork at ${first} or later`);
  }
  const upTo = events.filter((event) => event.seq <= at);
  const modelCalls = upTo.filter((event) => event.type === 'model_call_finished');
  const replies = assistantIndexes(record.messages);
  if (first > 1 && modelCalls.length === 0 && at > 0) {
    throw new ForkRefusedError(`run ${record.workflowId} keeps its newest events only (from ${first}), and no model reply among them is at or before ${at}: fork at a later event`);
  }
  // Model replies before the oldest kept event: as many as the conversation has beyond those counted.
  const unseenReplies = first > 1 ? replies.length - events.filter((event) => event.type === 'model_call_finished').length : 0;
  const replyCount = unseenReplies + modelCalls.length;
  if (replyCount > replies.length) throw new ForkRefusedError(`run ${record.workflowId}'s conversation has ${replies.length} model replies, its events ${replyCount}: it cannot be forked`);

  const lastReply = modelCalls.at(-1);
  const afterReply = lastReply ? upTo.filter((event) => event.seq > lastReply.seq) : upTo;
  const laterEvents = lastReply ? events.filter((event) => event.seq > lastReply.seq) : events;
  let messages: Message[];
  let from: number;
  if (replyCount === 0) {
    // A run's prompt stays; a conversation's messages and added inputs come back from the events seen by then.
    const conversation = events.some((event) => event.type === 'turn_started');
    from = 1;
    messages = record.messages.slice(0, conversation ? 1 : 2);
  } else {
    const index = replies[replyCount - 1]!;
    messages = [...record.messages.slice(0, index + 1), ...stepResults(record, record.messages[index] as AssistantMessage, index, laterEvents, afterReply)];
    from = index + 1;
  }
  const used = new Set<number>();
  const queuedInputs: QueuedInput[] = [];
  for (const event of afterReply) {
    if (event.type === 'turn_started') messages.push({ role: 'user', content: userText(record.messages, from, event.text, used) });
    if (event.type === 'input_added') {
      queuedInputs.push({ position: event.position, text: userText(record.messages, from, event.text, used), ...(event.addedBy !== undefined ? { addedBy: event.addedBy } : {}) });
    }
  }
  return {
    origin: { workflowId: record.workflowId, at, agent: record.agent },
    messages,
    ...spendAt(upTo),
    iterations: lastReply && lastReply.type === 'model_call_finished' ? lastReply.iteration : 0,
    ...groupsAt(upTo),
    sessionRules: [...(record.startingRules ?? []), ...upTo.flatMap((event) => (event.type === 'session_rule_added' ? [event.rule] : []))],
    ...(queuedInputs.length > 0 ? { queuedInputs } : {}),
    ...turnsAt(events, upTo),
  };
}

function spendAt(upTo: AgentEvent[]): Pick<ForkStart, 'usage' | 'cost'> {
  let usage = emptyUsage();
  let cost: number | undefined;
  for (const event of upTo) {
    if (event.type === 'model_call_finished' || event.type === 'subagent_finished' || event.type === 'conversation_compacted') {
      usage = addUsage(usage, event.usage);
      if (event.cost !== undefined) cost = (cost ?? 0) + event.cost;
    }
  }
  return { usage, ...(cost !== undefined ? { cost } : {}) };
}

function groupsAt(upTo: AgentEvent[]): Pick<ForkStart, 'activeGroups'> {
  const change = [...upTo].reverse().find((event) => event.type === 'groups_changed');
  return change && change.type === 'groups_changed' ? { activeGroups: change.active } : {};
}

function turnsAt(events: AgentEvent[], upTo: AgentEvent[]): Pick<ForkStart, 'turns'> {
  if (!events.some((event) => event.type === 'turn_started')) return {};
  return { turns: upTo.filter((event) => event.type === 'turn_started').length };
}
