import type { temporal } from '@temporalio/proto';
import type { Payload } from '@temporalio/common';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { z } from 'zod';
import { publishedInput, publishedWaitsSchema, WAITS_MEMO_KEY, type WaitingCall } from '../common/contracts/published-waits';
import type { AgentRunState, PendingCall } from '../common/run';
import { AGENT_NAME, AGENT_STATUS } from '../common/search-attributes';
import { isPayloadDecryptionError } from '../codec/payload-decryption-error';
import type { AgentClient } from './agent-client';
import { decodePayload } from './decode-payload';
import { unreadableBecause, WAITING_STATE_TIMEOUT_MS, type UnreadableRun } from './unreadable-run';
import { approvalFactsOf } from '../common/approval-facts';

export interface WaitingCallsOptions {
  /** Runs read per visibility page (each holds one or more waiting calls). Default 100, at most 1,000. */
  pageSize?: number;
  /** Where the previous page ended (its `nextPageToken`). */
  pageToken?: string;
  /** A visibility query that narrows the runs, e.g. `TaskQueue = 'agents'` or `AgentName = 'support'`. */
  query?: string;
  /** How long a run that publishes no memo (started before 0.6.0) gets to answer its state query. */
  stateTimeoutMs?: number;
}

export interface WaitingCallsPage {
  calls: WaitingCall[];
  /** Waiting runs whose calls could not be read, each with the reason. */
  unreadable: UnreadableRun[];
  /** Present when more runs wait: pass it as `pageToken` for the next page. */
  nextPageToken?: string;
}

export const MAX_WAITING_PAGE_SIZE = 1_000;
const DEFAULT_PAGE_SIZE = 100;
/** How many runs that publish nothing (older runs) are asked at once. */
const STATE_READS_AT_ONCE = 8;

/** The filter of open runs that wait for a person, as visibility has them (`AgentStatus`). */
export function waitingRunsQuery(scope?: string): string {
  const waiting = `WorkflowType IN ('agentWorkflow', 'conversationWorkflow') AND ExecutionStatus = 'Running' AND (${AGENT_STATUS.name} = 'awaiting_approval' OR ${AGENT_STATUS.name} = 'awaiting_external')`;
  return scope ? `${waiting} AND (${scope})` : waiting;
}

/** A page token as the caller gives it back: the visibility token, base64url. */
export const pageTokenSchema = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'is not a page token this client gave')
  .transform((token) => Buffer.from(token, 'base64url'));

/**
 * One page of the calls that wait for a person, read from visibility: each run publishes its
 * waiting calls in its memo, so no run is asked. A run that publishes nothing (started before
 * 0.6.0, or listed before its memo reached visibility) is read through its state query instead.
 * Calls held by sub-agents are listed at the sub-agent run that holds them, once.
 */
export async function readWaitingCalls(client: AgentClient, options: WaitingCallsOptions = {}): Promise<WaitingCallsPage> {
  const pageSize = Math.min(Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE), MAX_WAITING_PAGE_SIZE);
  const token = options.pageToken ? pageTokenSchema.safeParse(options.pageToken) : undefined;
  if (token && !token.success) throw new Error(`pageToken ${token.error.issues[0]?.message ?? 'is not valid'}`);
  const nextPageToken = token?.data;
  const response = await client.client.workflowService.listWorkflowExecutions({
    namespace: client.config.namespace,
    query: waitingRunsQuery(options.query),
    pageSize,
    ...(nextPageToken && nextPageToken.length > 0 ? { nextPageToken } : {}),
  });
  const page: WaitingCallsPage = { calls: [], unreadable: [] };
  const older: temporal.api.workflow.v1.IWorkflowExecutionInfo[] = [];
  for (const execution of response.executions) {
    const memo = execution.memo?.fields?.[WAITS_MEMO_KEY];
    if (!memo) older.push(execution);
    else await readPublished(client, execution, memo as Payload, page);
  }
  await readOlderRuns(client, older, options.stateTimeoutMs ?? WAITING_STATE_TIMEOUT_MS, page);
  if (response.nextPageToken && response.nextPageToken.length > 0) page.nextPageToken = Buffer.from(response.nextPageToken).toString('base64url');
  return page;
}

function visibleFacts(execution: temporal.api.workflow.v1.IWorkflowExecutionInfo): Pick<UnreadableRun, 'workflowId' | 'agent' | 'status'> {
  const attributes = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
  const agent = attributes.get(AGENT_NAME);
  const status = attributes.get(AGENT_STATUS);
  return { workflowId: execution.execution?.workflowId ?? '', ...(agent !== undefined ? { agent } : {}), ...(status !== undefined ? { status } : {}) };
}

async function readPublished(client: AgentClient, execution: temporal.api.workflow.v1.IWorkflowExecutionInfo, memo: Payload, page: WaitingCallsPage): Promise<void> {
  const facts = visibleFacts(execution);
  let decoded: unknown;
  try {
    decoded = await decodePayload(client.client.workflow, memo);
  } catch (error) {
    const message = (error as Error).message;
    const unreadable = isPayloadDecryptionError(error) ? { reason: 'undecryptable' as const, message } : { reason: 'error' as const, message: `its published waits could not be decoded: ${message}` };
    page.unreadable.push({ ...facts, unreadable });
    return;
  }
  const parsed = publishedWaitsSchema().safeParse(decoded);
  if (!parsed.success) {
    page.unreadable.push({ ...facts, unreadable: { reason: 'error', message: `its published waits are not in the expected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}` } });
    return;
  }
  const { agent, startedBy, top, calls } = parsed.data;
  for (const call of calls) {
    page.calls.push({ ...call, workflowId: facts.workflowId, agent, ...(startedBy !== undefined ? { startedBy } : {}), ...(top ? { top } : {}) });
  }
}

async function readOlderRuns(client: AgentClient, runs: temporal.api.workflow.v1.IWorkflowExecutionInfo[], timeoutMs: number, page: WaitingCallsPage): Promise<void> {
  for (let start = 0; start < runs.length; start += STATE_READS_AT_ONCE) {
    const batch = runs.slice(start, start + STATE_READS_AT_ONCE).map(visibleFacts);
    const answers = await Promise.all(batch.map((facts) => readState(client, facts.workflowId, timeoutMs)));
    batch.forEach((facts, index) => {
      const answer = answers[index]!;
      if ('unreadable' in answer) page.unreadable.push({ ...facts, unreadable: answer.unreadable });
      // A sub-agent's calls are listed at the sub-agent's own run, which visibility lists too.
      else page.calls.push(...waitingCallsOf(facts.workflowId, answer.state, { ownOnly: true }));
    });
  }
}

async function readState(client: AgentClient, workflowId: string, timeoutMs: number): Promise<{ state: AgentRunState } | { unreadable: UnreadableRun['unreadable'] }> {
  const deadline = Date.now() + timeoutMs;
  try {
    return { state: await client.client.withDeadline(deadline, () => client.get(workflowId).state()) };
  } catch (error) {
    return { unreadable: unreadableBecause(error, timeoutMs, deadline) };
  }
}

/** The calls a run's state shows waiting, as WaitingCalls: its own, and (unless `ownOnly`) those held by its sub-agents. */
export function waitingCallsOf(workflowId: string, state: AgentRunState, options: { ownOnly?: boolean } = {}): WaitingCall[] {
  const pending = options.ownOnly ? state.pending.filter((call) => !call.workflowId || call.workflowId === workflowId) : state.pending;
  return pending.map((call) => waitingCallOf(workflowId, state, call));
}

function waitingCallOf(workflowId: string, state: AgentRunState, call: PendingCall): WaitingCall {
  const holder = call.workflowId ?? workflowId;
  const inSubAgent = holder !== workflowId;
  return {
    callId: call.callId,
    tool: call.tool,
    kind: call.kind,
    since: call.since,
    ...(call.decision?.reason ? { reason: call.decision.reason } : {}),
    ...(call.decision?.suggestedRule ? { suggestedRule: call.decision.suggestedRule } : {}),
    ...(call.repeats ? { repeats: call.repeats } : {}),
    preview: publishedInput(call.input).preview,
    input: call.input,
    workflowId: holder,
    agent: inSubAgent ? call.agent ?? state.agent : state.agent,
    ...(state.startedBy !== undefined ? { startedBy: state.startedBy } : {}),
    ...(inSubAgent ? { top: { workflowId, agent: state.agent } } : {}),
    ...approvalFactsOf(call),
  };
}
