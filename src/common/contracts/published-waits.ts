import { z } from 'zod';
import type { RepeatedCall, WaitKind } from '../tool-call-record';
import { approvalFactsShape, type ApprovalFacts } from '../approval-facts';

/**
 * What a run publishes in its memo about the calls it waits on, so that visibility lists every
 * waiting call without asking any run (`AgentClient.waitingCalls`, `pending`, the inbox). Kept
 * current by the calls' own effects; encrypted by the payload codec like every payload.
 */
export const WAITS_MEMO_KEY = 'agentWaits';

/** The arguments are published whole while their JSON is this short; `preview` always. */
export const PUBLISHED_INPUT_CHARS = 1024;
export const INPUT_PREVIEW_CHARS = 200;
/** A batch seldom has more; past it, the rest are listed when the first ones are answered. */
export const MAX_PUBLISHED_CALLS = 50;

/** One waiting call as the run publishes it. */
export interface PublishedCall extends ApprovalFacts {
  callId: string;
  tool: string;
  kind: WaitKind;
  /** When it started waiting (ISO 8601). */
  since: string;
  /** Why the permission engine asked (approvals). */
  reason?: string;
  /** The rule that would allow such calls for the run. */
  suggestedRule?: string;
  /** An earlier call of the run with the same tool and arguments that already ran. */
  repeats?: RepeatedCall;
  /** The arguments, when their JSON has at most PUBLISHED_INPUT_CHARS characters. */
  input?: unknown;
  /** The arguments' JSON, cut to INPUT_PREVIEW_CHARS. */
  preview: string;
}

/** The run a sub-agent's call was started from. */
export interface TopRun {
  workflowId: string;
  /** Absent when the run was started by a parent of an older release, which did not pass it down. */
  agent?: string;
}

export interface PublishedWaits {
  v: 1;
  agent: string;
  startedBy?: string;
  /** Set in sub-agent runs: the top-level run a person started. */
  top?: TopRun;
  calls: PublishedCall[];
}

/** One call that waits for a person, wherever it is listed: its holder run, and what it waits for. */
export interface WaitingCall extends PublishedCall {
  /** The run that holds the call; answers go to it. */
  workflowId: string;
  /** The agent that made the call. */
  agent: string;
  /** The user id the holder run was started with. */
  startedBy?: string;
  /** Set when the holder is a sub-agent run. */
  top?: TopRun;
}

let schema: z.ZodType<PublishedWaits, z.ZodTypeDef, unknown> | undefined;

/** The memo's schema, built on first use (workflow code loads this module but never parses a memo). */
export function publishedWaitsSchema(): z.ZodType<PublishedWaits, z.ZodTypeDef, unknown> {
  const name = z.string().min(1).max(512);
  schema ??= z.object({
    v: z.literal(1),
    agent: name,
    startedBy: z.string().max(512).optional(),
    top: z.object({ workflowId: name, agent: name.optional() }).optional(),
    calls: z
      .array(
        z.object({
          callId: name,
          tool: name,
          kind: z.enum(['approval', 'external']),
          since: z.string().max(64),
          reason: z.string().max(4_000).optional(),
          suggestedRule: z.string().max(1_000).optional(),
          repeats: z.object({ callId: name, preview: z.string().max(1_000) }).optional(),
          input: z.unknown().optional(),
          preview: z.string().max(INPUT_PREVIEW_CHARS + 1),
          ...approvalFactsShape(512),
        }),
      )
      .max(MAX_PUBLISHED_CALLS),
  }) as z.ZodType<PublishedWaits, z.ZodTypeDef, unknown>;
  return schema;
}

/** The arguments as a published call carries them: whole when small, and a preview always. */
export function publishedInput(input: unknown): Pick<PublishedCall, 'input' | 'preview'> {
  const json = JSON.stringify(input) ?? '';
  const preview = json.length > INPUT_PREVIEW_CHARS ? `${json.slice(0, INPUT_PREVIEW_CHARS)}…` : json;
  return json.length <= PUBLISHED_INPUT_CHARS && input !== undefined ? { input, preview } : { preview };
}
