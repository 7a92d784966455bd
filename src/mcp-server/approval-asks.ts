import type { AgentRun } from '../client/agent-run';
import type { AgentEvent } from '../common/events';
import { elicitApproval, type ApprovalOutcome, type ApprovalRequest, type Elicit } from './approval-elicitation';

export type DecidedEvent = Extract<AgentEvent, { type: 'permission_decided' }>;

interface Ask {
  run: AgentRun;
  request: ApprovalRequest;
  controller: AbortController;
  phase: 'queued' | 'asking' | 'answering' | 'done';
  decided?: DecidedEvent;
}

/** How a call was decided, for the person whose answer came too late. */
export function decidedText(event: DecidedEvent | undefined): string {
  if (!event) return 'the call was already decided elsewhere';
  const verb = event.behavior === 'allow' ? 'approved' : 'denied';
  const by =
    event.by === 'user' ? 'elsewhere (the CLI, the library, the Web UI or another MCP client)' : event.by === 'timeout' ? 'by its approval timeout' : 'by the permission rules';
  return `the call was already ${verb} ${by}: ${event.reason}`;
}

const callText = (request: ApprovalRequest) => `${request.tool} (run ${request.runId}, call ${request.callId})`;

/**
 * The approval forms of one followed run, asked one at a time while the run is followed on. A
 * form stays open until the person answers, the call is decided elsewhere (then it is withdrawn),
 * or the follower stops. Whatever became of an answer that was not taken is told to the client
 * (`tell`) and kept in `notes` for the tool result: it is never dropped silently.
 */
export class ApprovalAsks {
  readonly notes: string[] = [];
  private readonly asks = new Map<string, Ask>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly elicit: Elicit,
    private readonly tell: (text: string) => Promise<void>,
  ) {}

  /** Asks about a call once, after the forms before it. */
  ask(run: AgentRun, request: ApprovalRequest): void {
    const key = `${request.runId}/${request.callId}`;
    if (this.asks.has(key)) return;
    const ask: Ask = { run, request, controller: new AbortController(), phase: 'queued' };
    this.asks.set(key, ask);
    this.queue = this.queue.then(() => this.askNow(ask)).catch(() => undefined);
  }

  /** A call was decided; unless by this client's answer, its form is withdrawn (or never shown). */
  decided(holder: string, event: DecidedEvent): void {
    const ask = this.asks.get(`${holder}/${event.callId}`);
    if (!ask || ask.phase === 'done') return;
    ask.decided = event;
    if (ask.phase !== 'answering') ask.controller.abort(new Error(decidedText(event)));
  }

  /** Withdraws the forms still open or waiting their turn, and waits for every ask to end. */
  async close(reason: string): Promise<void> {
    for (const ask of this.asks.values()) if (ask.phase === 'queued' || ask.phase === 'asking') ask.controller.abort(new Error(reason));
    await this.queue;
  }

  private async askNow(ask: Ask): Promise<void> {
    if (ask.controller.signal.aborted) {
      ask.phase = 'done';
      return;
    }
    let outcome: ApprovalOutcome;
    try {
      outcome = await elicitApproval(ask.run, ask.request, this.elicit, {
        signal: ask.controller.signal,
        onPhase: (phase) => (ask.phase = phase),
        onLate: (decision) => void this.refused(ask, decision),
      });
    } catch (error) {
      outcome = { kind: 'left waiting', problem: `the answer did not reach the run: ${(error as Error)?.message ?? String(error)}` };
    }
    ask.phase = 'done';
    switch (outcome.kind) {
      case 'refused':
        return this.refused(ask, outcome.decision);
      case 'withdrawn':
        // Withdrawn because the follower stopped (the run ended, the call or connection went): nothing to tell.
        if (ask.decided) return this.note(`The approval form for ${callText(ask.request)} was withdrawn: ${decidedText(ask.decided)}.`);
        return;
      case 'left waiting':
        if (outcome.problem) return this.note(`The approval of ${callText(ask.request)} still waits (answer it with approve_call or deny_call): ${outcome.problem}.`);
        return;
      default:
        return;
    }
  }

  private async refused(ask: Ask, decision: 'approve' | 'deny'): Promise<void> {
    const decided = ask.decided ?? (await this.decisionOf(ask));
    const signal = ask.controller.signal;
    const why = decided || !signal.aborted ? decidedText(decided) : `the form had been withdrawn (${(signal.reason as Error)?.message ?? String(signal.reason)})`;
    await this.note(`Your answer (${decision}) to ${callText(ask.request)} was not taken: ${why}.`);
  }

  /** The decision the run recorded, when the follower has not seen it yet. */
  private async decisionOf(ask: Ask): Promise<DecidedEvent | undefined> {
    const events = await ask.run.eventsAfter(0).catch((): AgentEvent[] => []);
    let decided: DecidedEvent | undefined;
    for (const event of events) if (event.type === 'permission_decided' && event.callId === ask.request.callId) decided = event;
    return decided;
  }

  private async note(text: string): Promise<void> {
    this.notes.push(text);
    await this.tell(text).catch(() => undefined);
  }
}
