import { z } from 'zod';
import { argumentsDigest } from '../../src/common/arguments-digest';
import type { InboxServer } from '../../src/inbox/inbox-server';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { ALICE_TOKEN, BOB_TOKEN, bearer, itemUrl, startInbox } from './inbox-kit';

const refunded: string[] = [];
const refund = defineTool({
  name: 'refund',
  description: 'Refund an order.',
  input: z.object({ order_id: z.string(), amount: z.number() }),
  execute: ({ order_id, amount }) => {
    refunded.push(order_id);
    return `refunded ${amount} on ${order_id}`;
  },
});
const guarded = defineAgent({
  name: 'inbox-guarded',
  instructions: 'You refund orders.',
  tools: [refund],
  permissions: { ask: ['refund'] },
  approvals: { approvers: ['alice'] },
});

describe('the inbox sends what its page showed with an answer, as the signed-in person', () => {
  let env: AgentTestEnv;
  let inbox: InboxServer;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [guarded],
      script: (_request, info) =>
        info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: info.lastUserText, amount: 30 } }] } : `Refunds: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    });
    inbox = await startInbox(env.client, env.taskQueue);
  });
  afterAll(async () => {
    await inbox?.close();
    await env?.stop();
  });

  const field = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(text)?.[1];
  const post = (url: string, token: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', redirect: 'manual', headers: { ...bearer(token), 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  test('the call page carries the digest and rules version and says who answers; a non-approver and a stale answer are refused with the reason; the approver answers', async () => {
    const run = await env.client.start('inbox-guarded', { prompt: 'ORD-9' });
    const call = (await waitForPending(run)).pending[0]!;
    const url = itemUrl(inbox, run.workflowId, call.callId);
    const pageOf = async (token: string) => waitFor(async () => {
      const text = await (await fetch(url, { headers: bearer(token) })).text();
      return field(text, 'digest') ? text : undefined;
    }, 'the call page with its form');

    const alicePage = await pageOf(ALICE_TOKEN);
    expect(field(alicePage, 'digest')).toBe(argumentsDigest({ order_id: 'ORD-9', amount: 30 }));
    expect(field(alicePage, 'rules_version')).toBe(call.rulesVersion);
    expect(alicePage).toMatch(/<dt>Who answers<\/dt><dd data-progress>approvers: alice<\/dd>/);
    const shown = { digest: field(alicePage, 'digest')!, rules_version: field(alicePage, 'rules_version')! };
    const args = { 'arg:order_id': 'ORD-9', 'arg:amount': '30' };

    const bobPage = await pageOf(BOB_TOKEN);
    const byBob = await post(url, BOB_TOKEN, { csrf: field(bobPage, 'csrf')!, action: 'approve', ...args, ...shown });
    expect(byBob.status).toBe(409);
    expect(await byBob.text()).toContain('&#39;bob&#39; may not answer');

    const csrf = field(alicePage, 'csrf')!;
    const stale = await post(url, ALICE_TOKEN, { csrf, action: 'deny', reason: 'no', digest: argumentsDigest({ order_id: 'ORD-9', amount: 3000 }), rules_version: shown.rules_version });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('other arguments');
    expect((await run.state()).pending).toHaveLength(1);
    expect(refunded).toEqual([]);

    const approved = await post(url, ALICE_TOKEN, { csrf, action: 'approve', ...args, ...shown });
    expect(approved.status).toBe(303);
    expect((await run.result()).output).toBe('Refunds: refunded 30 on ORD-9');
    expect(refunded).toEqual(['ORD-9']);
    expect((await run.eventsAfter(0)).find((e) => e.type === 'permission_decided')).toMatchObject({ behavior: 'allow', answeredBy: 'alice' });
  });
});
