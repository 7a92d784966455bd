import type { AgentEvent } from '../../common/events';
import { budgetOption } from '../budget-option';
import type { TurnResult } from '../../common/conversation';
import type { AgentRun } from '../../client/agent-run';
import type { SentMessage } from '../../client/conversation';
import type { CliInput } from '../cli-input';
import { printJson } from '../cli-output';
import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { formatEvent } from '../../text/format-event';
import { StreamedLines, TEXT_MARGIN } from '../stream-text';
import type { Answerer } from '../../client/agent-run';
import { answeredByOf, answeredByOption } from '../answered-by';
import { cliInvocation } from '../../text/invocation';

type Asked<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** The run's newest event number: a conversation chatted with before does not print its past again. */
async function lastSeq(run: AgentRun): Promise<number> {
  try {
    const events = await run.eventsAfter(0);
    return events.length ? events[events.length - 1]!.seq : 0;
  } catch {
    return 0; // not started yet
  }
}

async function stillPending(run: AgentRun, callId: string): Promise<boolean> {
  return (await run.state()).pending.some((call) => call.callId === callId);
}

/** Asks until the call is answered; false when the input ended first (the call keeps waiting). */
async function answerApproval(ctx: CommandContext, run: AgentRun, event: Asked<'permission_requested'>, input: CliInput, answerer: Answerer): Promise<boolean> {
  for (;;) {
    const answer = (await input.line(`approve ${event.tool}? [y]es, [n]o, [e]dit the arguments: `))?.trim().toLowerCase();
    if (answer === undefined) return false;
    try {
      if (answer === 'y' || answer === 'yes') {
        await run.approve(event.callId, answerer);
        return true;
      }
      if (answer === 'n' || answer === 'no') {
        const reason = (await input.line('reason (optional): '))?.trim();
        await run.deny(event.callId, reason || undefined, answerer);
        return true;
      }
      if (answer === 'e' || answer === 'edit') {
        const text = await input.line('arguments as JSON: ');
        if (text === undefined) return false;
        let edited: unknown;
        try {
          edited = JSON.parse(text);
        } catch (error) {
          ctx.output.err(`Not JSON: ${(error as Error).message}`);
          continue;
        }
        await run.approve(event.callId, { input: edited, ...answerer });
        return true;
      }
      ctx.output.err('Answer y, n or e.');
    } catch (error) {
      ctx.output.err(`Refused: ${(error as Error).message}`);
      if (!(await stillPending(run, event.callId))) return true;
    }
  }
}

/** Asks for the result of a tool that runs outside the worker; false when the input ended first. */
async function answerExternal(ctx: CommandContext, run: AgentRun, event: Asked<'external_requested'>, input: CliInput, answerer: Answerer): Promise<boolean> {
  for (;;) {
    const output = await input.line(`result of ${event.tool}: `);
    if (output === undefined) return false;
    try {
      await run.submit(event.callId, output, answerer);
      return true;
    } catch (error) {
      ctx.output.err(`Refused: ${(error as Error).message}`);
      if (!(await stillPending(run, event.callId))) return true;
    }
  }
}

interface Followed {
  seq: number;
  result?: TurnResult;
  /** The input ended while a call waited for an answer: the call (and the turn) wait on. */
  left?: Asked<'permission_requested' | 'external_requested'>;
}

/** Prints the turn's steps as they happen and asks inline for approvals and external results. */
async function followTurn(ctx: CommandContext, run: AgentRun, sent: SentMessage, from: number, input: CliInput, answerer: Answerer): Promise<Followed> {
  let seq = from;
  let result: TurnResult | undefined;
  let failure: unknown;
  const done = sent.result().then(
    (answer) => void (result = answer),
    (error: unknown) => void (failure = error),
  );
  const lines = new StreamedLines();
  const stop = new AbortController();
  try {
    for await (const item of run.stream({ afterSeq: seq, signal: stop.signal })) {
      // The text of the turn's model calls as it is written, line by line; sub-agents show in `watch`.
      if (item.depth > 0) continue;
      if (item.type === 'text_delta' && !ctx.json) for (const line of lines.add(String(item.iteration), item.text)) ctx.output.out(`${TEXT_MARGIN}${line}`);
      if (item.type !== 'event') continue;
      const { event } = item;
      seq = event.seq;
      if (event.type === 'model_call_finished' && !ctx.json) for (const line of lines.end(String(event.iteration))) ctx.output.out(`${TEXT_MARGIN}${line}`);
      if (ctx.json) printJson(ctx.output, event);
      else if (event.type !== 'turn_finished') ctx.output.out(formatEvent(event, run.workflowId, ctx.output.style));
      if (event.type === 'permission_requested' && (await stillPending(run, event.callId))) {
        if (!(await answerApproval(ctx, run, event, input, answerer))) return { seq, left: event };
      }
      if (event.type === 'external_requested' && (await stillPending(run, event.callId))) {
        if (!(await answerExternal(ctx, run, event, input, answerer))) return { seq, left: event };
      }
      if (event.type === 'turn_finished' || event.type === 'conversation_ended') break;
    }
  } finally {
    stop.abort();
  }
  await done;
  if (failure !== undefined) throw failure;
  return { seq, result };
}

export const chatCommand: CliCommand = {
  name: 'chat',
  usage: 'chat --agent NAME [--session ID] [--user ID] [--idle-timeout DURATION] [--budget JSON] [--as NAME] [--json]',
  summary: 'Talk with an agent in a conversation that keeps its history: each step shows as it happens, approvals and external results are asked inline.',
  details:
    'Type a message and press Enter. /end ends the conversation; /quit, or the end of the input, leaves it running: ' +
    'chat again with the same --session to go on. A tool call that needs approval asks [y]es, [n]o (with a reason) or ' +
    '[e]dit (new arguments as JSON); a tool that runs outside the worker asks for its result. With --json every event ' +
    'and each answer ({"type":"turn_result",...}) is a JSON line.',
  options: {
    agent: { type: 'string', valueName: 'NAME', description: 'the agent to talk with' },
    session: { type: 'string', valueName: 'ID', description: 'the conversation to start or go on with', defaultText: 'a new one' },
    user: { type: 'string', valueName: 'ID', description: "the user id the agent's tools see (when the conversation starts)" },
    'idle-timeout': { type: 'string', valueName: 'DURATION', description: 'no message for this long ends the conversation (when it starts)', defaultText: '30 days' },
    budget: { type: 'string', valueName: 'JSON', description: 'what the conversation may spend on model calls across its turns, e.g. \'{"cost": 5}\' (when it starts; see docs/budgets.md)' },
    as: answeredByOption,
  },
  examples: ['chat --agent support', 'chat --agent support --session customer-42 --idle-timeout 7d'],
  async run(ctx) {
    const agent = stringOption(ctx, 'agent');
    if (!agent) throw new UsageError('missing --agent NAME');
    const session = stringOption(ctx, 'session') ?? `chat-${Date.now().toString(36)}`;
    const user = stringOption(ctx, 'user');
    const idleTimeout = stringOption(ctx, 'idle-timeout');
    const answerer = answeredByOf(ctx);
    const budget = budgetOption(stringOption(ctx, 'budget'));
    const client = await ctx.connect();
    let conversation;
    try {
      conversation = client.conversation(agent, {
        sessionId: session,
        ...(user ? { runtime: { userId: user } } : {}),
        ...(idleTimeout ? { idleTimeout } : {}),
        ...(budget ? { budget } : {}),
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { run } = conversation;
    const bin = cliInvocation();
    const say = (line: string) => {
      if (!ctx.json) ctx.output.out(line);
    };
    say(`Conversation ${conversation.workflowId} with ${agent} (session ${session}) — ${run.webUiUrl}`);
    say('Type a message; /end ends the conversation, /quit leaves it running.');
    const input = ctx.input();
    let seq = await lastSeq(run);
    for (;;) {
      const text = (await input.line('you> '))?.trim();
      if (text === undefined || text === '/quit') {
        say(`Left the conversation running: ${bin} chat --agent ${agent} --session ${session} goes on with it.`);
        return 0;
      }
      if (text === '') continue;
      if (text === '/end') {
        const ended = await conversation.end();
        if (ctx.json) printJson(ctx.output, { type: 'conversation_result', ...ended });
        else say(`Ended after ${ended.turns} message(s).`);
        return 0;
      }
      const followed = await followTurn(ctx, run, await conversation.send(text, { wait: false }), seq, input, answerer);
      seq = followed.seq;
      if (followed.left) {
        say(`The input ended while ${followed.left.tool} waits (${followed.left.callId}): answer it with ${bin} pending ${conversation.workflowId}.`);
        return 3;
      }
      const result = followed.result!;
      if (ctx.json) printJson(ctx.output, { type: 'turn_result', ...result });
      else say(`${agent}> ${result.output}${result.status === 'completed' ? '' : ` (${result.status})`}`);
    }
  },
};
