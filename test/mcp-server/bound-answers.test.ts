import { z } from 'zod';
import type { AgentEvent } from '../../src/common/events';
import { elicitApproval, type ApprovalRequest, type Elicit } from '../../src/mcp-server/approval-elicitation';
import { defineAgent } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { waitFor, waitForPending } from '../helpers/wait-for';
import { argumentsDigest } from '../../src/common/arguments-digest';
import { startMcpServerKit, textOf, type McpServerKit } from '../helpers/mcp-server-kit';

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
const agent = defineAgent({ name: 'mcp-bound', instructions: 'You refund orders.', tools: [refund], permissions: { ask: ['refund'] } });

const approveForm: Elicit = async () => ({ action: 'accept', content: { decision: 'approve' } });

describe("durable-agent mcp: an approval form's answer is bound to the arguments and rules the form showed", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [agent],
      script: (_request, info) =>
        info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: info.lastUserText, amount: 30 } }] } : `Refunds: ${info.toolResults.map((r) => r.content).join(' | ')}`,
    });
  });
  afterAll(async () => env?.stop());

  test('a form that showed other arguments or other rules is not taken (the call still waits, nothing ran); the form of the asked call is', async () => {
    const run = await env.client.start('mcp-bound', { prompt: 'M1' });
    await waitForPending(run);
    const asked = (await run.eventsAfter(0)).find((e): e is Extract<AgentEvent, { type: 'permission_requested' }> => e.type === 'permission_requested')!;
    expect(asked.rulesVersion).toMatch(/^[0-9a-f]{64}$/);
    const request: ApprovalRequest = { runId: run.workflowId, callId: asked.callId, tool: asked.tool, input: asked.input, reason: asked.reason, rulesVersion: asked.rulesVersion };
    const signal = new AbortController().signal;

    const otherArguments = await elicitApproval(run, { ...request, input: { order_id: 'M1', amount: 3000 } }, approveForm, { signal });
    expect(otherArguments).toEqual({ kind: 'left waiting', problem: expect.stringContaining('other arguments') });
    const otherRules = await elicitApproval(run, { ...request, rulesVersion: 'b'.repeat(64) }, approveForm, { signal });
    expect(otherRules).toEqual({ kind: 'left waiting', problem: expect.stringContaining('other rules') });
    expect((await run.state()).pending).toHaveLength(1);
    expect(refunded).toEqual([]);

    expect(await elicitApproval(run, request, approveForm, { signal })).toEqual({ kind: 'approved' });
    expect((await run.result()).output).toBe('Refunds: refunded 30 on M1');
    expect(refunded).toEqual(['M1']);
  });
});

describe('durable-agent mcp: list_pending gives the digest and rules version, approve_call and deny_call send them back', () => {
  let kit: McpServerKit;
  beforeAll(async () => {
    kit = await startMcpServerKit();
  });
  afterAll(async () => kit?.stop());

  test('an answer for other arguments is refused with the reason and the call still waits; the listed ones are taken', async () => {
    const run = await kit.env.client.start('mcp-refunds', { prompt: 'Refund ORD-1' });
    await waitForPending(run);
    const client = await kit.overStdio();
    type Listed = { runId: string; callId: string; arguments: unknown; argumentsDigest?: string; rulesVersion?: string };
    const call = await waitFor(async () => {
      const pending = await client.callTool({ name: 'list_pending', arguments: {} });
      return (pending.structuredContent as { calls: Listed[] }).calls.find((item) => item.runId === run.workflowId);
    }, 'list_pending to show the call');
    expect(call.argumentsDigest).toBe(argumentsDigest(call.arguments));
    expect(call.rulesVersion).toMatch(/^[0-9a-f]{64}$/);

    const stale = await client.callTool({ name: 'deny_call', arguments: { runId: call.runId, callId: call.callId, argumentsDigest: argumentsDigest({ ...(call.arguments as object), amount: 1 }), rulesVersion: call.rulesVersion } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('other arguments');
    expect((await run.state()).pending).toHaveLength(1);

    const approved = await client.callTool({ name: 'approve_call', arguments: { runId: call.runId, callId: call.callId, argumentsDigest: call.argumentsDigest, rulesVersion: call.rulesVersion } });
    expect(approved.isError).toBeFalsy();
    expect((await run.result()).output).toBe('Refunds: refunded 30 on ORD-1');
  });
});
