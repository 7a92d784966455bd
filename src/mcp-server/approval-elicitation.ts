import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentRun } from '../client/agent-run';
import { isClosedRunError, RunRequestRejectedError } from '../client/request-rejected';
import { argumentsDigest } from '../common/arguments-digest';

export interface ElicitOptions {
  /** Withdraws the form. */
  signal: AbortSignal;
  /** What the client answered after the form was withdrawn (unparsed). */
  onLate?: (answer: unknown) => void;
}

/** Asks the client's user with a form; resolves with the client's answer, unparsed. No timeout: it waits as long as the signal lets it. */
export type Elicit = (params: ElicitRequestFormParams, options: ElicitOptions) => Promise<unknown>;

export interface ApprovalRequest {
  /** The run that holds the call. */
  runId: string;
  callId: string;
  tool: string;
  input: unknown;
  reason: string;
  /** The rules version the call was asked under (its `permission_requested` event's), sent back with the answer. */
  rulesVersion?: string;
}

/** What the form showed, sent with the answer: the run refuses it when the call's arguments or rules are no longer those. */
function boundTo(request: ApprovalRequest): { argumentsDigest: string; rulesVersion?: string } {
  return { argumentsDigest: argumentsDigest(request.input), ...(request.rulesVersion !== undefined ? { rulesVersion: request.rulesVersion } : {}) };
}

/** A refusal for what the answer was bound to: asking again would show the same stale form. */
const STALE = /other arguments|other rules|rules changed/;

/** How often a person may correct an answer the run refused (bad JSON, arguments the tool's schema rejects). */
const MAX_ATTEMPTS = 3;

const answerSchema = z.object({
  decision: z.enum(['approve', 'deny']),
  arguments: z.string().optional(),
  reason: z.string().optional(),
});

function form(request: ApprovalRequest, problem?: string): ElicitRequestFormParams {
  const args = JSON.stringify(request.input);
  return {
    mode: 'form',
    message:
      `The agent wants to call ${request.tool} with ${args}. ${request.reason}. (run ${request.runId}, call ${request.callId})` +
      (problem ? `\n\nThe last answer was not taken: ${problem}` : ''),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny'] },
        arguments: { type: 'string', title: 'Arguments (JSON)', description: 'Change them to run the call with other arguments', default: args },
        reason: { type: 'string', title: 'Reason', description: 'Why (the model reads it when you deny)' },
      },
      required: ['decision'],
    },
  };
}

/** Edited arguments, when the person changed them: parsed JSON of an object, or why not. */
function editedArguments(text: string | undefined, original: unknown): { input?: Record<string, unknown> } | { problem: string } {
  if (text === undefined || text.trim() === '' || text === JSON.stringify(original)) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'the arguments must be a JSON object' };
    return { input: value as Record<string, unknown> };
  } catch (error) {
    return { problem: `the arguments are not JSON (${(error as Error).message})` };
  }
}

type Answer = z.infer<typeof answerSchema>;

/** The client's answer parsed: a decision, a form left unanswered (declined, cancelled), or why it cannot be read. */
export function answerOf(raw: unknown): Answer | { left: true } | { problem: string } {
  const result = ElicitResultSchema.safeParse(raw);
  if (!result.success) return { problem: `the answer is not an elicitation result (${result.error.issues.map((issue) => issue.message).join('; ')})` };
  if (result.data.action !== 'accept') return { left: true };
  const parsed = answerSchema.safeParse(result.data.content ?? {});
  if (parsed.success) return parsed.data;
  return { problem: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`).join('; ') };
}

export type ApprovalOutcome =
  | { kind: 'approved' | 'denied' }
  /** Declined or cancelled, or no answer the run took: someone else may answer. */
  | { kind: 'left waiting'; problem?: string }
  /** The signal withdrew the form. */
  | { kind: 'withdrawn' }
  /** The run had the call decided already: this answer was not taken. */
  | { kind: 'refused'; decision: Answer['decision'] };

export interface ElicitApprovalOptions {
  signal: AbortSignal;
  /** 'answering' while the person's answer goes to the run, 'asking' while a form is open. */
  onPhase?: (phase: 'asking' | 'answering') => void;
  /** A decision that arrived after the form was withdrawn. */
  onLate?: (decision: Answer['decision']) => void;
}

/**
 * Asks the MCP client's user to approve or deny a call, and gives the run the answer. A declined
 * or cancelled form leaves the call waiting (the CLI, the Web UI or another client can still
 * answer it); an answer the run refuses (bad JSON, arguments the tool's schema rejects) is asked
 * again with the reason, up to three times; an answer to a call decided meanwhile is refused.
 */
export async function elicitApproval(run: AgentRun, request: ApprovalRequest, elicit: Elicit, options: ElicitApprovalOptions): Promise<ApprovalOutcome> {
  const onLate = (raw: unknown) => {
    const answer = answerOf(raw);
    if ('decision' in answer) options.onLate?.(answer.decision);
  };
  let problem: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    options.onPhase?.('asking');
    let raw: unknown;
    try {
      raw = await elicit(form(request, problem), { signal: options.signal, onLate });
    } catch (error) {
      if (options.signal.aborted) return { kind: 'withdrawn' };
      return { kind: 'left waiting', problem: `the client answered the form with an error: ${(error as Error)?.message ?? String(error)}` };
    }
    const answer = answerOf(raw);
    if ('left' in answer) return { kind: 'left waiting' };
    if ('problem' in answer) {
      problem = answer.problem;
      continue;
    }
    const { decision, reason } = answer;
    options.onPhase?.('answering');
    try {
      if (decision === 'deny') {
        await run.deny(request.callId, reason || undefined, boundTo(request));
        return { kind: 'denied' };
      }
      const edited = editedArguments(answer.arguments, request.input);
      if ('problem' in edited) {
        problem = edited.problem;
        continue;
      }
      await run.approve(request.callId, { ...(edited.input ? { input: edited.input } : {}), ...(reason ? { reason } : {}), ...boundTo(request) });
      return { kind: 'approved' };
    } catch (error) {
      if (!(error instanceof RunRequestRejectedError)) throw error;
      // Decided meanwhile, or the run ended (its answer came just after the call was answered elsewhere and the run went on to its end).
      if (/already decided|no tool call/.test(error.message) || isClosedRunError(error)) return { kind: 'refused', decision };
      if (STALE.test(error.message)) return { kind: 'left waiting', problem: error.message };
      problem = error.message;
    }
  }
  return { kind: 'left waiting', problem: `${MAX_ATTEMPTS} answers in a row were not taken (the last: ${problem})` };
}
