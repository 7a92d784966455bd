import { join } from 'node:path';
import type { ChatModelPort } from '../../src/common/contracts/model-call';
import type { AgentEvent } from '../../src/common/events';
import { ApprovalPolicies, decisionOf, parseAgentApprovalPolicy, parsePolicySpec, policySpecFor, type PolicyRequest } from '../../src/policy';
import { cedarValue } from '../../src/policy/cedar-policy';
import { judgePolicy } from '../../src/policy/judge-policy';
import { formatEvent } from '../../src/text/format-event';
import { styleFor } from '../../src/text/style';
import { defineAgent } from '../../src/toolkit/define-agent';
import { checkedApprovalPolicy, readApprovalPolicy } from '../../src/worker/config';

const FIXTURES = join(__dirname, '..', 'fixtures', 'policies');
const cedar = { kind: 'cedar' as const, name: 'refunds', version: '3', file: join(FIXTURES, 'refunds.cedar') };
const rego = { kind: 'rego' as const, name: 'refunds-rego', version: '1', file: join(FIXTURES, 'refunds.wasm') };
const asked = { behavior: 'ask' as const, reason: "the rule 'refund' asks", suggestedRule: 'refund', rememberable: true };

function request(amount: unknown, user: string | null = 'alice', tool = 'refund'): PolicyRequest {
  return {
    user: user === null ? {} : { id: user },
    tool,
    arguments: { order_id: 'A1', amount },
    context: { agent: 'shop', workflowId: 'wf-1', runId: 'run-1', mode: 'default', askedBecause: asked.reason, safety: false, runtime: user ? { userId: user } : {} },
  };
}

describe('approval policy configuration (parsed at the boundary)', () => {
  test('a policy needs kind, name, version and its file or rubric; unknown fields are refused', () => {
    expect(parsePolicySpec('p', { kind: 'cedar', name: 'refunds', version: 3, file: 'a.cedar' })).toEqual({ kind: 'cedar', name: 'refunds', version: '3', file: 'a.cedar' });
    expect(() => parsePolicySpec('AGENT_APPROVAL_POLICY', { kind: 'cedar', name: 'refunds', file: 'a.cedar' })).toThrow(/AGENT_APPROVAL_POLICY is not an approval policy: version/);
    expect(() => parsePolicySpec('p', { kind: 'opa', name: 'x', version: '1', file: 'a' })).toThrow(/kind/);
    expect(() => parsePolicySpec('p', { kind: 'judge', name: 'j', version: '1' })).toThrow(/rubric/);
    expect(() => parsePolicySpec('p', { kind: 'rego', name: 'r', version: '1', file: 'a.wasm', source: 'a.rego' })).toThrow(/source/);
  });

  test("defineAgent refuses a malformed approvalPolicy and keeps the parsed one", () => {
    expect(() => defineAgent({ name: 'a', instructions: '', approvalPolicy: { kind: 'cedar', name: 'bad name', version: '1', file: 'x' } as never })).toThrow(/Agent 'a': invalid approvalPolicy: name/);
    expect(defineAgent({ name: 'a', instructions: '', approvalPolicy: { tools: { refund: { ...cedar, version: 3 as never } } } }).approvalPolicy).toEqual({ tools: { refund: cedar } });
  });

  test('the worker reads AGENT_APPROVAL_POLICY as JSON; a bad one fails the worker start with what is wrong', () => {
    expect(readApprovalPolicy(undefined)).toBeUndefined();
    expect(readApprovalPolicy(JSON.stringify(cedar))).toEqual(cedar);
    expect(() => readApprovalPolicy('{oops')).toThrow(/AGENT_APPROVAL_POLICY is not JSON/);
    expect(() => checkedApprovalPolicy({ kind: 'judge' })).toThrow(/approvalPolicy is not an approval policy/);
  });

  test("which policy decides: the tool's, the agent's default, the worker's; false means none", () => {
    const judge = parsePolicySpec('j', { kind: 'judge', name: 'j', version: '1', rubric: 'r' });
    expect(policySpecFor(undefined, 'refund', cedar)).toBe(cedar);
    expect(policySpecFor(false, 'refund', cedar)).toBeUndefined();
    expect(policySpecFor(judge, 'refund', cedar)).toBe(judge);
    const perTool = parseAgentApprovalPolicy('a', { tools: { refund: rego, lookup: false }, default: judge });
    expect(policySpecFor(perTool, 'refund', cedar)).toEqual(rego);
    expect(policySpecFor(perTool, 'lookup', cedar)).toBeUndefined();
    expect(policySpecFor(perTool, 'other', cedar)).toEqual(judge);
    expect(policySpecFor(parseAgentApprovalPolicy('a', { tools: { refund: rego } }), 'other', cedar)).toBe(cedar);
  });
});

describe('the policy door', () => {
  test('allow and deny replace the ASK; ask keeps the rule to remember and shows the policy reason', () => {
    const policy = { name: 'refunds', version: '3' };
    expect(decisionOf(policy, { outcome: 'allow', reason: 'amount ≤ 100' }, false, asked)).toEqual({
      behavior: 'allow',
      reason: 'allowed by refunds-v3: amount ≤ 100',
      policy: { name: 'refunds', version: '3', outcome: 'allow', reason: 'amount ≤ 100' },
    });
    expect(decisionOf(policy, { outcome: 'deny', reason: 'too much' }, false, asked)).toMatchObject({ behavior: 'deny', reason: 'denied by refunds-v3: too much' });
    expect(decisionOf(policy, { outcome: 'ask', reason: 'check it' }, false, asked)).toEqual({ ...asked, reason: 'refunds-v3 asks a person: check it', policy: { ...policy, outcome: 'ask', reason: 'check it' } });
  });

  test('a policy never allows what a safety check asked about', () => {
    const decision = decisionOf({ name: 'p', version: '1' }, { outcome: 'allow', reason: 'fine' }, false, { ...asked, safety: true });
    expect(decision.behavior).toBe('ask');
    expect(decision.policy).toMatchObject({ outcome: 'ask', reason: 'fine; but a safety check asked, and only a person may allow it' });
  });

  test('calls nobody configured a policy for keep the rules\' ASK; a policy that throws asks', async () => {
    const warn = jest.fn();
    const policies = await ApprovalPolicies.load({ agents: [{ name: 'shop', approvalPolicy: { tools: { refund: cedar } } }, { name: 'other' }], warn });
    expect(await policies.review({ ...request(10), tool: 'lookup' }, asked)).toBe(asked);
    expect(await policies.review({ ...request(10), context: { ...request(10).context, agent: 'other' } }, asked)).toBe(asked);
    expect((await policies.review(request(10), asked)).behavior).toBe('allow');
    expect(warn).not.toHaveBeenCalled();
  });

  test('a missing file is logged once, and its calls ask a person', async () => {
    const warn = jest.fn();
    const missing = { ...cedar, name: 'gone', file: join(FIXTURES, 'no-such.cedar') };
    const policies = await ApprovalPolicies.load({ agents: [{ name: 'shop', approvalPolicy: missing }, { name: 'shop2', approvalPolicy: missing }], warn });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/Approval policy gone-v3 \(cedar, .*no-such.cedar\) could not be loaded: ENOENT/);
    const decision = await policies.review(request(10), asked);
    expect(decision).toMatchObject({ behavior: 'ask', suggestedRule: 'refund', policy: { name: 'gone', outcome: 'ask', failed: true } });
    expect(decision.reason).toMatch(/^gone-v3 could not decide \(it could not be loaded: ENOENT.*\); a person decides: the rule 'refund' asks$/);
  });
});

describe('Cedar and Rego answers', () => {
  test.each([
    [cedar, 50, 'alice', 'allow'],
    [cedar, 500, 'alice', 'ask'],
    [cedar, 5000, 'alice', 'deny'],
    [cedar, 50, null, 'ask'],
    [rego, 50, 'alice', 'allow'],
    [rego, 500, 'alice', 'ask'],
    [rego, 5000, 'alice', 'deny'],
    [rego, 50, null, 'ask'],
  ])('%o: amount %d by %s → %s', async (spec, amount, user, outcome) => {
    const policies = await ApprovalPolicies.load({ agents: [{ name: 'shop', approvalPolicy: spec }], warn: () => undefined });
    expect((await policies.review(request(amount, user), asked)).behavior).toBe(outcome);
  });

  test('Cedar: a forbid that fails to evaluate does not let a permit allow', async () => {
    const policies = await ApprovalPolicies.load({ agents: [{ name: 'shop', approvalPolicy: cedar }], warn: () => undefined });
    // amount as a decimal: every policy's `<=` on a Long fails, so nothing is allowed.
    const decision = await policies.review(request(50.5), asked);
    expect(decision.behavior).toBe('ask');
    expect(decision.policy?.reason).toMatch(/failed to evaluate/);
  });

  test('Cedar values: integers stay Long, other numbers become decimals, null is left out', () => {
    expect(cedarValue({ a: 1, b: 2.5, c: null, d: [1, null, 'x'], e: 1e-9 })).toEqual({ a: 1, b: { __extn: { fn: 'decimal', arg: '2.5000' } }, d: [1, 'x'], e: '1e-9' });
  });
});

describe('the judge', () => {
  function modelAnswering(text: string | Error): ChatModelPort & { seen: unknown[] } {
    const seen: unknown[] = [];
    return {
      seen,
      async complete(request) {
        seen.push(request);
        if (text instanceof Error) throw text;
        return { message: { role: 'assistant', content: text }, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: request.model ?? 'm' };
      },
    };
  }
  const spec = { name: 'judge', version: '1', rubric: 'Refunds over 100 need a person.', model: 'judge-model' };

  test('reads { outcome, reason }, fenced or not; the rubric and the call are what it is sent', async () => {
    const model = modelAnswering('{"outcome":"allow","reason":"small refund"}');
    expect(await judgePolicy(spec, model).decide(request(10))).toEqual({ outcome: 'allow', reason: 'small refund' });
    expect(model.seen[0]).toMatchObject({ model: 'judge-model', tools: [] });
    expect(JSON.stringify(model.seen[0])).toContain('Refunds over 100 need a person.');
    expect(await judgePolicy(spec, modelAnswering('```json\n{"outcome":"deny","reason":"no"}\n```')).decide(request(10))).toEqual({ outcome: 'deny', reason: 'no' });
  });

  test.each([
    ['not JSON', 'yes', /not JSON/],
    ['another shape', '{"decision":"allow"}', /not \{ outcome/],
    ['an unknown outcome', '{"outcome":"maybe","reason":"x"}', /not \{ outcome/],
    ['an empty reason', '{"outcome":"allow","reason":""}', /not \{ outcome/],
  ])('%s throws (the door then asks a person)', async (_what, text, problem) => {
    await expect(judgePolicy(spec, modelAnswering(text)).decide(request(10))).rejects.toThrow(problem);
  });

  test('an error of the model asks a person through the door', async () => {
    const policies = await ApprovalPolicies.load({ agents: [{ name: 'shop', approvalPolicy: { kind: 'judge', ...spec } }], model: modelAnswering(new Error('503 overloaded')), warn: () => undefined });
    expect(await policies.review(request(10), asked)).toMatchObject({ behavior: 'ask', policy: { outcome: 'ask', failed: true, reason: '503 overloaded' } });
  });
});

describe('the event lines', () => {
  const at = '2026-12-05T03:00:00.000Z';
  test("a policy's decision reads 'allowed by refunds-v3: amount ≤ 100'", () => {
    const decided = (behavior: 'allow' | 'deny', reason: string): AgentEvent => ({
      type: 'permission_decided',
      seq: 1,
      at,
      callId: 'c1',
      tool: 'refund',
      behavior,
      by: 'rules',
      reason: `${behavior === 'allow' ? 'allowed' : 'denied'} by refunds-v3: ${reason}`,
      policy: { name: 'refunds', version: '3', outcome: behavior, reason },
    });
    expect(formatEvent(decided('allow', 'amount ≤ 100'), 'wf', styleFor(false))).toBe('03:00:00   ✔ refund: allowed by refunds-v3: amount ≤ 100');
    expect(formatEvent(decided('deny', 'amount > 1000'), 'wf', styleFor(false))).toBe('03:00:00   ✘ refund: denied by refunds-v3: amount > 1000');
    const byPerson: AgentEvent = { type: 'permission_decided', seq: 2, at, callId: 'c1', tool: 'refund', behavior: 'allow', by: 'user', reason: 'ok' };
    expect(formatEvent(byPerson, 'wf', styleFor(false))).toBe('03:00:00   ✔ refund: allow by user (ok)');
  });
});
