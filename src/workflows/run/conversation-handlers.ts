import { condition, setHandler } from '@temporalio/workflow';
import { endConversationUpdate, sendMessageUpdate, type TurnResult } from '../../common/conversation';
import type { QueuedMessage } from './conversation-turn';
import { acceptedPayload } from '../input';

/** What the conversation's loop and its message handlers share. */
export interface ConversationControl {
  /** Messages accepted and not yet answered, oldest first. */
  queue: QueuedMessage[];
  /** Answers not yet handed back to their `sendMessage` update. */
  answers: Map<number, TurnResult>;
  /** Set by `endConversation` or the idle timeout: no message is accepted after. */
  ended: boolean;
  /** Messages accepted so far: the last turn number. */
  sent: number;
}

export const ENDED_MESSAGE = 'the conversation has ended; it accepts no more messages';

async function answerOf(control: ConversationControl, turn: number): Promise<TurnResult> {
  await condition(() => control.answers.has(turn));
  const answer = control.answers.get(turn)!;
  control.answers.delete(turn);
  return answer;
}

/**
 * `sendMessage` queues the message and completes with its turn's answer, so messages sent while a
 * turn runs are answered in the order they came; `endConversation` lets the queued ones finish.
 * Installed before the agent is described, so the first message, which starts the conversation,
 * finds its handler; `maxBytes` is the agent's payload limit once known.
 */
export function installConversationHandlers(control: ConversationControl, maxBytes: () => number): void {
  setHandler(
    sendMessageUpdate,
    (raw) => {
      const { text } = acceptedPayload('sendMessage', raw, maxBytes());
      control.sent += 1;
      control.queue.push({ turn: control.sent, text });
      return answerOf(control, control.sent);
    },
    {
      validator: (raw) => {
        acceptedPayload('sendMessage', raw, maxBytes());
        if (control.ended) throw new Error(ENDED_MESSAGE);
      },
    },
  );
  setHandler(
    endConversationUpdate,
    () => {
      control.ended = true;
      return { turns: control.sent };
    },
    {
      validator: (raw: unknown) => {
        acceptedPayload('endConversation', raw, maxBytes());
      },
    },
  );
}
