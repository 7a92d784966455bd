import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentRun } from '../client/agent-run';
import { RunRequestRejectedError } from '../client/request-rejected';

export type Elicit = (params: ElicitRequestFormParams) => Promise<ElicitResult>;

export interface ApprovalRequest {
  /** The run that holds the call. */
  runId: string;
  callId: string;
  tool: string;
  input: unknown;
  reason: string;
}

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

/**
 * Asks the MCP client's user to approve or deny a call, and gives the run the answer. A declined
 * or cancelled form leaves the call waiting (the CLI, the Web UI or another client can still
 * answer it); an answer the run refuses is asked again with the reason, up to three times.
 * Returns what became of the call.
 */
export async function elicitApproval(run: AgentRun, request: ApprovalRequest, elicit: Elicit): Promise<'approved' | 'denied' | 'left waiting'> {
  let problem: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const answer = await elicit(form(request, problem));
    if (answer.action !== 'accept') return 'left waiting';
    const parsed = answerSchema.safeParse(answer.content ?? {});
    if (!parsed.success) {
      problem = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`).join('; ');
      continue;
    }
    const { decision, reason } = parsed.data;
    try {
      if (decision === 'deny') {
        await run.deny(request.callId, reason || undefined);
        return 'denied';
      }
      const edited = editedArguments(parsed.data.arguments, request.input);
      if ('problem' in edited) {
        problem = edited.problem;
        continue;
      }
      await run.approve(request.callId, { ...(edited.input ? { input: edited.input } : {}), ...(reason ? { reason } : {}) });
      return 'approved';
    } catch (error) {
      if (!(error instanceof RunRequestRejectedError)) throw error;
      // Decided meanwhile by someone else: nothing more to ask.
      if (/already decided|no tool call/.test(error.message)) return 'left waiting';
      problem = error.message;
    }
  }
  return 'left waiting';
}
