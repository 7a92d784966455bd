import type { AgentClient } from '../client/agent-client';
import type { UnreadableRun } from '../client/unreadable-run';
import { waitingCallsOf } from '../client/waiting-calls';
import type { WaitingCall } from '../common/contracts/published-waits';
import type { AgentRunState } from '../common/run';
import type { JsonSchema } from '../common/tools';
import { applyFilters, type ListFilters } from './list-filters';

/** The calls a list page shows at least (more when one visibility page holds more). */
export const INBOX_PAGE_CALLS = 50;
/** Waiting runs read per visibility page. */
const RUNS_PER_READ = 100;

export interface InboxList {
  calls: WaitingCall[];
  unreadable: UnreadableRun[];
  /** Where the next page starts, when more runs wait. */
  nextPageToken?: string;
}

/**
 * One page of the inbox's list: visibility pages are read (no run is asked) until the filters
 * have kept INBOX_PAGE_CALLS calls or no run is left, so every waiting call is reachable by
 * following `nextPageToken`.
 */
export async function readInboxList(client: AgentClient, filters: ListFilters, scope?: string, pageToken?: string): Promise<InboxList> {
  const list: InboxList = { calls: [], unreadable: [] };
  let token = pageToken;
  do {
    const page = await client.waitingCalls({ pageSize: RUNS_PER_READ, ...(scope ? { query: scope } : {}), ...(token ? { pageToken: token } : {}) });
    list.calls.push(...applyFilters(page.calls, filters));
    list.unreadable.push(...page.unreadable);
    token = page.nextPageToken;
  } while (token && list.calls.length < INBOX_PAGE_CALLS);
  if (token) list.nextPageToken = token;
  return list;
}

/** One waiting call as its page shows it: read from the run that holds it, with its tool's schema from that run's description. */
export interface OpenCall {
  call: WaitingCall;
  schema?: JsonSchema;
}

/** The call `callId` when `state` (the holder's) shows it waiting, with its schema. */
export function openCallOf(holderId: string, state: AgentRunState, callId: string): OpenCall | undefined {
  const own = state.pending.find((pending) => pending.callId === callId && (!pending.workflowId || pending.workflowId === holderId));
  if (!own) return undefined;
  const call = waitingCallsOf(holderId, { ...state, pending: [own] })[0]!;
  return { call, ...(own.schema ? { schema: own.schema } : {}) };
}

/** The call's address in the inbox: the holder run's id and the call id. */
export function itemPath(call: Pick<WaitingCall, 'workflowId' | 'callId'>): string {
  return `/calls/${encodeURIComponent(call.workflowId)}/${encodeURIComponent(call.callId)}`;
}

export function itemKey(call: Pick<WaitingCall, 'workflowId' | 'callId'>): string {
  return `${call.workflowId}/${call.callId}`;
}
