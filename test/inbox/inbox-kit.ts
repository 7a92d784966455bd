import type { Page } from 'playwright-core';
import type { AgentClient } from '../../src/client/agent-client';
import { parseInboxAuth } from '../../src/inbox/inbox-auth';
import { serveInbox, type InboxServer } from '../../src/inbox/inbox-server';
import { itemPath } from '../../src/inbox/inbox-calls';

export const ALICE_TOKEN = 'alice-token-0123456789abcdef';
export const BOB_TOKEN = 'bob-token-0123456789abcdef';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The inbox in this process, over the test's client, listing the runs of its task queue; alice and bob each have a token. */
export function startInbox(client: AgentClient, taskQueue: string): Promise<InboxServer> {
  return serveInbox({
    client,
    port: 0,
    auth: parseInboxAuth({ tokens: [`alice=${ALICE_TOKEN}`, `bob=${BOB_TOKEN}`], basicAuth: [] }),
    scope: `TaskQueue = '${taskQueue}'`,
    pollIntervalMs: 400,
  });
}

export function itemUrl(inbox: InboxServer, holderId: string, callId: string): string {
  return `${inbox.url}${itemPath({ workflowId: holderId, callId })}`;
}

/** The list's row of a call, once the list shows it. */
export async function rowOf(page: Page, holderId: string, callId: string) {
  const row = page.locator(`tr[data-run="${holderId}"][data-call="${callId}"]`);
  await row.waitFor({ timeout: 20_000 });
  return row;
}
