/**
 * Permission vocabulary shared by the engine, the activities and the workflow.
 * Rules are strings: `tool`, `tool(pattern)` or `*` (see src/permissions).
 */
export type PermissionBehavior = 'allow' | 'ask' | 'deny';

export type PermissionMode = 'default' | 'accept_edits' | 'explore' | 'bypass' | 'dont_ask';

export interface PermissionDecision {
  behavior: PermissionBehavior;
  /** Why, in words a person and the model can read. */
  reason: string;
  /** An ASK or DENY raised by a safety check: no allow rule and no mode can override it. */
  safety?: boolean;
  /** For ASK: the rule that would allow such calls from now on (e.g. `bash(git:*)`). */
  suggestedRule?: string;
  /**
   * For ASK: whether remembering `suggestedRule` as a session rule changes later decisions.
   * False when the ASK came from a safety check, which no rule overrides.
   */
  rememberable?: boolean;
  /** Set when an approval policy (Cedar, Rego, a judge) decided an ASK of the rules: which one, and why. */
  policy?: PolicyVerdict;
}

/** What an approval policy answered about a call the rules would ask a person about (see docs/policies.md). */
export interface PolicyVerdict {
  /** The policy's name and version, as configured. */
  name: string;
  version: string;
  /** `ask`: a person decides, with `reason` shown to them. */
  outcome: PermissionBehavior;
  reason: string;
  /** Set when the policy could not be loaded or evaluated (its outcome is then `ask`). */
  failed?: true;
}

/**
 * How a tool's main argument is read by rule patterns: `command` (shell command line) or
 * `path` (file path). Unset means path-like matching and no pattern in suggested rules.
 */
export type PatternKind = 'command' | 'path';

export interface PermissionSettings {
  mode?: PermissionMode;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  /** What happens when nothing else decided. `allow` unless set. */
  default?: PermissionBehavior;
}
