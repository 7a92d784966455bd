import type { AgentClient, StartOptions } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { describeRunFailure } from '../client/run-failure';
import type { TurnResult } from '../common/conversation';
import type { TokenUsage } from '../common/messages';
import { WaitAnswerer } from './answer-waits';
import { attendRun, type Attended } from './attend-run';
import type { CaseTools, CaseToolsRegistry } from './case-tools';
import type { EvalCaseInput } from './define-suite';
import { usageOf } from './run-calls';
import type { RunFacts } from './score-case';
import { waitAtMost } from './wait-at-most';

export interface CaseRunSettings {
  client: AgentClient;
  registry: CaseToolsRegistry;
  /** How long one run may take, its waits included. */
  timeoutMs: number;
  pollMs: number;
  signal?: AbortSignal;
}

export interface CaseRunOutcome {
  workflowId: string;
  facts?: RunFacts;
  /** Why the case could not run as written (a waiting call without an answer, a run that did not start, …). */
  error?: string;
}

const CANCEL_WAIT_MS = 30_000;

function failedStatus(error: unknown): string {
  return (error as { cause?: { name?: string } })?.cause?.name === 'CancelledFailure' ? 'cancelled' : 'failed';
}

async function endedRun(run: AgentRun): Promise<void> {
  await run.cancel().catch(() => undefined);
  await waitAtMost(run.result(), CANCEL_WAIT_MS);
}

async function runOnce(settings: CaseRunSettings, evalCase: EvalCaseInput, workflowId: string, model: string | undefined, answerer: WaitAnswerer): Promise<CaseRunOutcome> {
  const startedAt = Date.now();
  const options: StartOptions = { prompt: evalCase.turns[0]!, id: workflowId, ...(model !== undefined ? { model } : {}) };
  let run: AgentRun;
  try {
    run = await settings.client.start(evalCase.agent, options);
  } catch (error) {
    return { workflowId, error: `the run could not start: ${(error as Error).message}` };
  }
  const { outcome } = await attendRun(run, run.result(), answerer, { startedAt, timeoutMs: settings.timeoutMs, pollMs: settings.pollMs, afterSeq: 0, ...(settings.signal ? { signal: settings.signal } : {}) });
  if ('problem' in outcome) await endedRun(run);
  const events = await run.eventsAfter(0);
  const spent = usageOf(events);
  if ('settled' in outcome) {
    const { status, output, data, usage, cost, iterations } = outcome.settled;
    return { workflowId, facts: { status, output, ...(data !== undefined ? { data } : {}), usage, ...(cost !== undefined ? { cost } : {}), iterations, events } };
  }
  const failure = 'failed' in outcome ? outcome.failed : undefined;
  const facts: RunFacts = { ...spent, status: failure === undefined ? 'cancelled' : failedStatus(failure), output: failure === undefined ? '' : describeRunFailure(workflowId, failure), events };
  return { workflowId, facts, ...('problem' in outcome ? { error: outcome.problem } : {}) };
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}

/** A conversation, one turn per message; its answer and status are the last turn's, its tokens, cost and iterations all turns'. */
async function converse(settings: CaseRunSettings, evalCase: EvalCaseInput, sessionId: string, model: string | undefined, tools: CaseTools, answerer: WaitAnswerer): Promise<CaseRunOutcome> {
  const startedAt = Date.now();
  const conversation = settings.client.conversation(evalCase.agent, { sessionId, ...(model !== undefined ? { model } : {}) });
  const workflowId = conversation.workflowId;
  settings.registry.register(workflowId, tools);
  try {
    let seq = 0;
    let last: TurnResult | undefined;
    let usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    let cost: number | undefined;
    let iterations = 0;
    let ending: Attended<TurnResult> | undefined;
    for (const [index, turn] of evalCase.turns.entries()) {
      let sent;
      try {
        sent = await conversation.send(turn, { wait: false });
      } catch (error) {
        ending = { problem: `turn ${index + 1} could not be sent: ${(error as Error).message}` };
        break;
      }
      const attended = await attendRun(conversation.run, sent.result(), answerer, { startedAt, timeoutMs: settings.timeoutMs, pollMs: settings.pollMs, afterSeq: seq, ...(settings.signal ? { signal: settings.signal } : {}) });
      seq = attended.seq;
      if (!('settled' in attended.outcome)) {
        ending = attended.outcome;
        break;
      }
      last = attended.outcome.settled;
      usage = addUsage(usage, last.usage);
      if (last.cost !== undefined) cost = (cost ?? 0) + last.cost;
      iterations += last.iterations;
      if (last.status === 'failed') break;
    }
    if (ending && 'problem' in ending) await endedRun(conversation.run);
    else await conversation.end().catch(() => undefined);
    const events = await conversation.run.eventsAfter(0);
    const status = ending ? ('failed' in ending ? failedStatus(ending.failed) : 'cancelled') : last!.status;
    const output = ending && 'failed' in ending ? describeRunFailure(workflowId, ending.failed) : (last?.output ?? '');
    const facts: RunFacts = { status, output, ...(last?.data !== undefined && !ending ? { data: last.data } : {}), usage, ...(cost !== undefined ? { cost } : {}), iterations, events };
    return { workflowId, facts, ...(ending && 'problem' in ending ? { error: ending.problem } : {}) };
  } finally {
    settings.registry.unregister(workflowId);
  }
}

/**
 * Runs one case once as a durable run (a conversation when it has several turns) on the eval's
 * worker: its tools answer as the case says, its waits are answered from its answers.
 */
export async function runCase(settings: CaseRunSettings, evalCase: EvalCaseInput, id: string, model: string | undefined, tools: CaseTools): Promise<CaseRunOutcome> {
  const answerer = new WaitAnswerer(evalCase.answers ?? [], (workflowId) => settings.client.get(workflowId));
  if (evalCase.turns.length > 1) return converse(settings, evalCase, id, model, tools, answerer);
  settings.registry.register(id, tools);
  try {
    return await runOnce(settings, evalCase, id, model, answerer);
  } finally {
    settings.registry.unregister(id);
  }
}
