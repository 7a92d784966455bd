import type { Duration } from '@temporalio/common';
import { z } from 'zod';
import { durationMs, DURATION_EXAMPLES } from './duration';

/**
 * Who may answer a call's approval, when the run reminds them and to whom it escalates. Set on
 * the agent (`defineAgent({ approvals })`), per tool under `tools`, and as the worker's default
 * (`createWorker({ approvals })`); the nearest setting of each field wins. Recorded in the run's
 * description, so the run checks answers and keeps its timers without asking a worker again.
 *
 * An approver is an identity as a surface authenticated it (the inbox's signed-in user, the
 * `answeredBy` of the library, the CLI's `--as`) or `group:NAME`, a group of identities the
 * settings' `groups` map names. Groups live in the settings, not in what a surface reports: a
 * surface's claim of membership would be one more string a sender may write, while the recorded
 * map is what the run can check the same way on every replay.
 */
export interface ApproverSettings {
  /** Who may answer (identities or `group:NAME`); none: anyone, as without settings. */
  approvers?: string[];
  /** When to remind the approvers, each counted from the ask, e.g. `['4h', '1d']`. */
  remind?: Duration[];
  /** When nobody answered by `after` (from the ask), `to` may answer too, and is told. */
  escalate?: { after: Duration; to: string[] };
}

export interface ApprovalSettings extends ApproverSettings {
  /** Settings of one tool, over the agent's. */
  tools?: Record<string, ApproverSettings>;
  /** The members of each `group:NAME`. */
  groups?: Record<string, string[]>;
}

export const GROUP_PREFIX = 'group:';

const MAX = 100;
const name = () => z.string().min(1, 'an approver must not be empty').max(200);
const duration = (what: string) =>
  z.union([z.string(), z.number()]).refine((value) => durationMs(value) !== undefined, { message: `${what} is not a duration (${DURATION_EXAMPLES}; more than zero)` });

function approverSettingsShape() {
  return {
    approvers: z.array(name()).min(1, 'approvers needs at least one name (leave it out for anyone)').max(MAX).optional(),
    remind: z.array(duration('a reminder')).max(20).optional(),
    escalate: z.object({ after: duration('escalate.after'), to: z.array(name()).min(1).max(MAX) }).strict().optional(),
  };
}

/** The settings as an agent or a worker writes them, parsed before anything uses them. */
export function approvalSettingsSchema() {
  return z
    .object({
      ...approverSettingsShape(),
      tools: z.record(z.object(approverSettingsShape()).strict()).optional(),
      groups: z.record(z.array(name()).max(1_000)).optional(),
    })
    .strict();
}

/** Why `settings` cannot be used, or undefined. */
export function approvalSettingsProblem(what: string, settings: unknown): string | undefined {
  if (settings === undefined) return undefined;
  const parsed = approvalSettingsSchema().safeParse(settings);
  if (parsed.success) return undefined;
  return `${what}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`).join('; ')}`;
}

/** The worker's default under the agent's: each field the agent (or its tool) sets wins; groups are merged. */
export function withDefaultApprovals(agent: ApprovalSettings | undefined, worker: ApprovalSettings | undefined): ApprovalSettings | undefined {
  if (!worker) return agent;
  if (!agent) return worker;
  return { ...worker, ...agent, tools: { ...worker.tools, ...agent.tools }, groups: { ...worker.groups, ...agent.groups } };
}

/** What holds for one tool's calls: its own settings field by field over the agent's. */
export function settingsForTool(settings: ApprovalSettings | undefined, tool: string): ApproverSettings {
  if (!settings) return {};
  const own = settings.tools && Object.prototype.hasOwnProperty.call(settings.tools, tool) ? settings.tools[tool]! : {};
  const pick = <K extends keyof ApproverSettings>(key: K) => (own[key] !== undefined ? own[key] : settings[key]);
  const approvers = pick('approvers');
  const remind = pick('remind');
  const escalate = pick('escalate');
  return { ...(approvers ? { approvers } : {}), ...(remind ? { remind } : {}), ...(escalate ? { escalate } : {}) };
}

/** Whether any setting names approvers (then an answer must say who gives it). */
export function namesApprovers(settings: ApprovalSettings | undefined): boolean {
  if (!settings) return false;
  return settings.approvers !== undefined || settings.escalate !== undefined || Object.values(settings.tools ?? {}).some((tool) => tool.approvers !== undefined || tool.escalate !== undefined);
}

/** Whether `identity` is one of `approvers`, by name or as a member of a named group. */
export function mayAnswer(approvers: readonly string[], identity: string | undefined, groups: ApprovalSettings['groups']): boolean {
  if (identity === undefined) return false;
  return approvers.some((approver) => {
    if (approver === identity) return true;
    if (!approver.startsWith(GROUP_PREFIX) || !groups) return false;
    const group = approver.slice(GROUP_PREFIX.length);
    return Object.prototype.hasOwnProperty.call(groups, group) && groups[group]!.includes(identity);
  });
}

/** Approvers as people read them: `group:finance-leads` as `finance-leads`. */
export function approversText(approvers: readonly string[]): string {
  return approvers.map((approver) => (approver.startsWith(GROUP_PREFIX) ? approver.slice(GROUP_PREFIX.length) : approver)).join(', ');
}
