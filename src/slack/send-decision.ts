import type { AgentClient } from '../client/agent-client';
import { refusalText } from '../inbox/send-answer';

export interface SlackDecision {
  approved: boolean;
  /** Edited arguments (approvals from the Edit modal); the run checks them again. */
  input?: Record<string, unknown>;
  /** The identity the Slack user is mapped to. */
  answeredBy: string;
  /** argumentsDigest of the arguments the message showed (kept with the message). */
  argumentsDigest: string;
  /** The rules' version the call was asked under, as the run published it when the message was posted. */
  rulesVersion?: string;
}

export type DecisionOutcome = { ok: true } | { ok: false; reason: string };

/**
 * A decision from Slack, sent to the run that holds the call as `answeredBy`. The run refuses what
 * it would refuse from anyone (already answered, not an approver, invalid edited arguments): that
 * refusal comes back as the reason, in the inbox's words.
 * The answer carries the digest of the arguments the message showed and the rules' version it
 * was posted under, so the run refuses it when either changed since (AgentRun's Answerer).
 */
export async function sendDecision(client: AgentClient, workflowId: string, callId: string, decision: SlackDecision): Promise<DecisionOutcome> {
  const run = client.get(workflowId);
  const answerer = {
    answeredBy: decision.answeredBy,
    argumentsDigest: decision.argumentsDigest,
    ...(decision.rulesVersion !== undefined ? { rulesVersion: decision.rulesVersion } : {}),
  };
  try {
    if (decision.approved) await run.approve(callId, { ...(decision.input !== undefined ? { input: decision.input } : {}), ...answerer });
    else await run.deny(callId, `Denied in Slack by ${decision.answeredBy}`, answerer);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: refusalText(error) };
  }
}
