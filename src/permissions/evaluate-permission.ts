/**
 * The permission engine: one decision per tool call, from the agent's settings, the rules
 * remembered during the run, and the tool's own check (computed by the caller, in an
 * activity). Pure: the same request always gives the same decision.
 *
 * | step | source                                  | outcome                                          |
 * |------|-----------------------------------------|--------------------------------------------------|
 * | a    | settings.deny (first match)             | DENY                                             |
 * | b    | settings.ask (first match)              | ASK                                              |
 * | c    | tool's check, safety ASK or DENY        | final: no mode, rule or bypass overrides it      |
 * | d    | mode explore                            | read-only → ALLOW, anything else → DENY          |
 * |      | mode accept_edits                       | read-only or editing tool → ALLOW                |
 * | e    | tool's check, DENY or ALLOW             | final                                            |
 * |      | tool's check, ASK (not safety)          | remembered for h; rules below may still allow    |
 * | f    | settings.allow                          | ALLOW                                            |
 * | g    | mode bypass                             | ALLOW                                            |
 * | h    | ASK remembered from e                   | ASK                                              |
 * |      | otherwise                               | settings.default ?? 'allow'                      |
 * | i    | sessionRules, on any non-safety ASK     | ALLOW: a person already answered it for this run |
 * | j    | mode dont_ask, any ASK left             | DENY, keeping `safety` (nobody can approve)      |
 *
 * Every ASK carries `suggestedRule`; `rememberable` says whether adding it to the session
 * rules would change the next decision (it cannot beat a deny rule or a safety check).
 * Deny and ask rules match broadly, allow rules narrowly (see match-rule). A malformed rule
 * throws `PermissionRuleError`; check settings up front with `validatePermissionSettings`.
 */
import type { PatternKind, PermissionDecision, PermissionSettings } from '../common/permissions';
import { findMatchingRule, type RuleTarget } from './match-rule';
import { suggestRule } from './suggest-rule';

export interface PermissionToolInfo {
  name: string;
  readOnly: boolean;
  /** Edits files: allowed in accept_edits mode. */
  edits?: boolean;
  /** The tool's main argument, matched by rule patterns like `bash(git:*)`. */
  patternValue?: string;
  patternKind?: PatternKind;
}

export interface PermissionRequest {
  tool: PermissionToolInfo;
  /** The tool's own permission check, when it has one. */
  toolDecision?: PermissionDecision;
  settings: PermissionSettings;
  /** Allow rules remembered during this run. */
  sessionRules?: readonly string[];
}

export const DONT_ASK_REASON = 'dont_ask mode: no person is available to approve';
export const EXPLORE_DENY_REASON = 'explore mode is read-only';

/** A person who approved with "remember" answered this question for the rest of the run. */
function rememberedAnswer(request: PermissionRequest, decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== 'ask' || decision.safety) return decision;
  const { tool } = request;
  const target: RuleTarget = { toolName: tool.name, patternValue: tool.patternValue, patternKind: tool.patternKind };
  const rule = findMatchingRule(request.sessionRules, target, 'grant');
  return rule === undefined ? decision : { behavior: 'allow', reason: `matched session rule '${rule}'` };
}

export function evaluatePermission(request: PermissionRequest): PermissionDecision {
  const decision = rememberedAnswer(request, decide(request));
  if (decision.behavior !== 'ask' || request.settings.mode !== 'dont_ask') return decision;
  return {
    behavior: 'deny',
    reason: `${DONT_ASK_REASON} (${decision.reason})`,
    ...(decision.safety ? { safety: true } : {}),
  };
}

function decide({ tool, toolDecision, settings }: PermissionRequest): PermissionDecision {
  const target: RuleTarget = { toolName: tool.name, patternValue: tool.patternValue, patternKind: tool.patternKind };
  const ask = (reason: string, rememberable: boolean, safety = false): PermissionDecision => ({
    behavior: 'ask',
    reason,
    ...(safety ? { safety: true } : {}),
    suggestedRule: suggestRule(tool.name, tool.patternValue, tool.patternKind),
    rememberable,
  });
  const toolReason = (decision: PermissionDecision): string => {
    if (typeof decision.reason === 'string' && decision.reason.trim() !== '') return decision.reason;
    return `${tool.name}'s own permission check returned ${decision.behavior}`;
  };

  const denyRule = findMatchingRule(settings.deny, target, 'restrict');
  if (denyRule !== undefined) return { behavior: 'deny', reason: `matched deny rule '${denyRule}'` };

  if (toolDecision?.safety && toolDecision.behavior !== 'allow') {
    if (toolDecision.behavior === 'deny') return { behavior: 'deny', reason: toolReason(toolDecision), safety: true };
    return ask(toolReason(toolDecision), false, true);
  }

  const askRule = findMatchingRule(settings.ask, target, 'restrict');
  if (askRule !== undefined) return ask(`${tool.name} requires approval (ask rule '${askRule}')`, true);

  if (settings.mode === 'explore') {
    return tool.readOnly
      ? { behavior: 'allow', reason: 'explore mode allows read-only tools' }
      : { behavior: 'deny', reason: EXPLORE_DENY_REASON };
  }
  if (settings.mode === 'accept_edits' && (tool.readOnly || tool.edits)) {
    const kind = tool.readOnly ? 'read-only' : 'file-editing';
    return { behavior: 'allow', reason: `accept_edits mode allows ${kind} tools` };
  }

  if (toolDecision?.behavior === 'deny' || toolDecision?.behavior === 'allow') {
    return { behavior: toolDecision.behavior, reason: toolReason(toolDecision) };
  }
  const toolAsk = toolDecision?.behavior === 'ask' ? toolDecision : undefined;

  const allowRule = findMatchingRule(settings.allow, target, 'grant');
  if (allowRule !== undefined) return { behavior: 'allow', reason: `matched allow rule '${allowRule}'` };

  if (settings.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode allows every call' };

  if (toolAsk) return ask(toolReason(toolAsk), true);
  const fallback = settings.default ?? 'allow';
  const because = `no rule matched and the default is ${fallback}`;
  if (fallback === 'ask') return ask(`${tool.name} requires approval (${because})`, true);
  return { behavior: fallback, reason: because };
}
