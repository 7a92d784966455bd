import { z } from 'zod';

/**
 * What a waiting approval says of who may answer it and what an answer binds to, in runs with
 * `answer-rules`: the same fields on the state's pending call, the published waits and every list
 * made of them.
 */
export interface ApprovalFacts {
  /** The digest of the call's arguments (arguments-digest.ts), sent back with an answer. */
  argumentsDigest?: string;
  /** The version of the rules the call was asked under (rules-version.ts), sent back with an answer. */
  rulesVersion?: string;
  /** Who may answer it now, when the agent names approvers. */
  approvers?: string[];
  /** Reminders sent so far. */
  reminded?: number;
  /** Set once it was escalated. */
  escalated?: true;
  /** Who handed it on, last. */
  delegatedBy?: string;
}

type ApprovalFactsSource = Omit<ApprovalFacts, 'approvers'> & { readonly approvers?: readonly string[] };

/** The facts a call carries, copied (the ones it lacks left out). */
export function approvalFactsOf(call: ApprovalFactsSource): ApprovalFacts {
  return {
    ...(call.argumentsDigest !== undefined ? { argumentsDigest: call.argumentsDigest } : {}),
    ...(call.rulesVersion !== undefined ? { rulesVersion: call.rulesVersion } : {}),
    ...(call.approvers ? { approvers: [...call.approvers] } : {}),
    ...(call.reminded ? { reminded: call.reminded } : {}),
    ...(call.escalated ? { escalated: true as const } : {}),
    ...(call.delegatedBy !== undefined ? { delegatedBy: call.delegatedBy } : {}),
  };
}

/** The facts' fields as a zod shape, for the schemas of messages that carry a waiting call. */
export function approvalFactsShape(maxNameChars: number) {
  return {
    argumentsDigest: z.string().max(64).optional(),
    rulesVersion: z.string().max(64).optional(),
    approvers: z.array(z.string().max(maxNameChars)).max(200).optional(),
    reminded: z.number().int().nonnegative().optional(),
    escalated: z.literal(true).optional(),
    delegatedBy: z.string().max(maxNameChars).optional(),
  };
}
