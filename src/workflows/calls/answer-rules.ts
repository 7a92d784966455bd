import { argumentsDigest } from '../../common/arguments-digest';
import { approversText, mayAnswer, settingsForTool } from '../../common/approvals';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import { rulesVersion } from '../../common/rules-version';
import type { ToolCallRecord } from '../../common/tool-call-record';
import type { Writing } from '../state';
import { answeredBefore, recordOf } from './book';

/**
 * The rules an answer to an approval is held to, in runs described with `answer-rules`: who may
 * give it (the call's approvers), and what it was given for (the arguments' digest and the rules'
 * version the answerer saw, both optional for older senders). Without approvers, and without the
 * two fields, an answer is taken exactly as before.
 */

export interface AnswerClaims {
  answeredBy?: string;
  argumentsDigest?: string;
  rulesVersion?: string;
}

export function answerRulesOn(state: Writing<'calls'>): boolean {
  return hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.answerRules);
}

/** The version of the rules a call asking now is asked under. */
export function currentRulesVersion(state: Writing<'calls'>): string {
  return rulesVersion(state.descriptor.permissions, state.sessionRules);
}

/** Who may answer calls of this tool from their ask (none named: anyone). */
export function approversForTool(state: Writing<'calls'>, tool: string): string[] | undefined {
  return settingsForTool(state.descriptor.approvals, tool).approvers;
}

/** Why this answerer may not answer the waiting call, or undefined. */
export function answererProblem(state: Writing<'calls'>, record: ToolCallRecord, answeredBy: string | undefined): string | undefined {
  const approvers = record.approvers;
  if (!approvers || mayAnswer(approvers, answeredBy, state.descriptor.approvals?.groups)) return undefined;
  if (answeredBy === undefined) return `tool call '${record.callId}' may be answered only by ${approversText(approvers)}: say who answers (answeredBy, --as)`;
  return `'${answeredBy}' may not answer tool call '${record.callId}': it may be answered only by ${approversText(approvers)}`;
}

/** Why an answer given for what the answerer saw does not fit the waiting call, or undefined. */
export function boundProblem(state: Writing<'calls'>, record: ToolCallRecord, claims: AnswerClaims): string | undefined {
  if (claims.argumentsDigest !== undefined && claims.argumentsDigest !== argumentsDigest(record.input)) {
    return `the answer was given for other arguments than tool call '${record.callId}' waits with: read the call again and answer what it asks now`;
  }
  if (claims.rulesVersion !== undefined && claims.rulesVersion !== record.rulesVersion) {
    return `the answer was given under other rules than tool call '${record.callId}' was asked under: read the call again`;
  }
  if (record.rulesVersion !== undefined && record.rulesVersion !== currentRulesVersion(state)) {
    return `the run's rules changed since tool call '${record.callId}' asked: the answer is refused; read the run's rules and the call again`;
  }
  return undefined;
}

/**
 * Why the run refuses this answer for `callId` by its rules, or undefined. An answer for a call
 * that does not wait yet (a signal's, kept until the call asks) is refused when it is bound or the
 * call's tool has approvers: there is nothing it could have been shown, nobody to check it against.
 */
export function answerRulesProblem(state: Writing<'calls'>, callId: string, claims: AnswerClaims): string | undefined {
  if (!answerRulesOn(state)) return undefined;
  const record = recordOf(state, callId);
  if (!record || record.phase.name !== 'awaiting_approval') {
    // Answered already: refused as before, in those words.
    if (record ? record.answer !== undefined || record.phase.name === 'settled' : answeredBefore(state, callId)) return undefined;
    if (claims.argumentsDigest !== undefined || claims.rulesVersion !== undefined) {
      return `tool call '${callId}' does not wait for approval: an answer bound to what was shown needs a waiting call`;
    }
    const tools = record && record.tool !== '' ? [record.tool] : state.descriptor.tools.map((tool) => tool.name);
    if (tools.some((tool) => approversForTool(state, tool))) return `tool call '${callId}' does not wait for approval yet, and its approvers must answer it when it does`;
    return undefined;
  }
  return answererProblem(state, record, claims.answeredBy) ?? boundProblem(state, record, claims);
}
