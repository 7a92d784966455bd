import type { ToolCallPhase, ToolCallPhaseName, ToolCallRecord } from '../../common/tool-call-record';

/**
 * The one table of a call's lifecycle: each named transition, the phases it may start from, and
 * the phase it leads to. Every phase change goes through `move`, which checks it here.
 */
export const TRANSITIONS = {
  /** The worker checks it (validation, the tool's own check, the permission engine). */
  check: { from: ['queued'], to: 'checking' },
  /** The check is in: it waits for its turn in the batch. */
  checked: { from: ['checking'], to: 'queued' },
  /** The engine asked: it waits for a person's decision. */
  ask: { from: ['queued'], to: 'awaiting_approval' },
  /** Still waiting: its approvers were reminded, it was escalated, or an approver handed it to others. */
  remind: { from: ['awaiting_approval'], to: 'awaiting_approval' },
  escalate: { from: ['awaiting_approval'], to: 'awaiting_approval' },
  delegate: { from: ['awaiting_approval'], to: 'awaiting_approval' },
  /** A person approved it: it waits for its turn again. */
  approve: { from: ['awaiting_approval'], to: 'queued' },
  /** A person denied it, or nobody decided in time. */
  refuse: { from: ['awaiting_approval'], to: 'settled' },
  /** It waits for a result from outside: an external tool, or a tool that suspended while running. */
  awaitResult: { from: ['queued', 'running'], to: 'awaiting_external' },
  /** A worker runs it (from the check, when the check runs it too). */
  run: { from: ['queued', 'checking'], to: 'running' },
  /** An agent tool started its sub-agent run. */
  enterSubAgent: { from: ['queued'], to: 'in_sub_agent' },
  /** The sub-agent reported what it waits for now. */
  subAgentWaits: { from: ['in_sub_agent'], to: 'in_sub_agent' },
  /** The sub-agent run ended. */
  leaveSubAgent: { from: ['in_sub_agent'], to: 'running' },
  /** Its result is in. */
  settle: { from: ['queued', 'checking', 'running', 'awaiting_external'], to: 'settled' },
} as const satisfies Record<string, { from: readonly ToolCallPhaseName[]; to: ToolCallPhaseName }>;

export type TransitionName = keyof typeof TRANSITIONS;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A record as calls/ writes it; outside calls/ it is read-only by type. */
export type WritableRecord = Writable<ToolCallRecord>;

export function writable(record: ToolCallRecord): WritableRecord {
  return record as WritableRecord;
}

/**
 * Moves a call along the table. A move the table does not hold is a defect of the runtime, not
 * of the run: it fails the workflow task (which Temporal retries, so a fixed worker resumes the
 * run) instead of failing the run or going on with a call in a phase nobody planned.
 */
export function move<T extends TransitionName>(record: ToolCallRecord, transition: T, phase: Extract<ToolCallPhase, { name: (typeof TRANSITIONS)[T]['to'] }>): WritableRecord {
  const rule: { from: readonly ToolCallPhaseName[]; to: ToolCallPhaseName } = TRANSITIONS[transition];
  const to = (phase as ToolCallPhase).name;
  if (!rule.from.includes(record.phase.name) || to !== rule.to) {
    throw new Error(`tool call '${record.callId}' (${record.tool}) cannot '${transition}' from phase '${record.phase.name}' to '${to}'`);
  }
  const target = writable(record);
  target.phase = phase;
  return target;
}
