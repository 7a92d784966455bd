import type { Message } from '../../src/common/messages';
import type { AgentRunResult } from '../../src/common/run';
import { answered, failedChecks, reportsRefund, statesOrderStatus } from '../../src/demo/answer-checks';

const refundResult = (state: 'success' | 'denied' | undefined): Message[] =>
  state ? [{ role: 'tool', toolCallId: 'c', name: 'request_refund', content: state === 'success' ? '{"refundId":"RF-ORD-2024-002"}' : 'Permission denied', state }] : [];
const result = (output: string, more: Partial<AgentRunResult> = {}): AgentRunResult =>
  ({ status: 'completed', output, messages: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, iterations: 1, ...more }) as AgentRunResult;
const problems = (r: AgentRunResult, checks = [answered, statesOrderStatus('ORD-2024-001')]) => failedChecks(r, checks).map((f) => f.problem);

describe("the demo's answer checks", () => {
  test("the tracking answer must be a text answer that states the order's real status, in English or Chinese", () => {
    expect(problems(result('订单 ORD-2024-001 由 SF Express 承运，当前状态：in transit'))).toEqual([]);
    expect(problems(result('您的耳机已发货，正在运输中。'))).toEqual([]);
    expect(problems(result('您的订单已签收。'))).toEqual(['it names neither status: "您的订单已签收。"']);
    expect(problems(result('{"name": "track_logistics", "arguments": {"order_id": "ORD-2024-001"}}'))[0]).toMatch(/^the answer is a call of track_logistics written as text/);
    expect(problems(result('Shipped.', { status: 'max_iterations' }))).toEqual(['the run ended max_iterations: "Shipped."']);
  });

  test('the refund answer must say what the person chose: made when approved, refused when denied', () => {
    const check = [reportsRefund('ORD-2024-002')];
    expect(problems(result('已为您提交退款申请 RF-ORD-2024-002。', { messages: refundResult('success') }), check)).toEqual([]);
    expect(problems(result('抱歉，退款申请被拒绝了。', { messages: refundResult('denied') }), check)).toEqual([]);
    expect(problems(result('已为您提交退款申请 RF-ORD-2024-002。', { messages: refundResult('denied') }), check)[0]).toMatch(/^the refund was refused, but the answer does not say so/);
    expect(problems(result('抱歉，退款申请未能提交。', { messages: refundResult('success') }), check)[0]).toMatch(/^the refund was made \(RF-ORD-2024-002\), but the answer does not say so/);
    expect(problems(result('Refunded.', { messages: refundResult(undefined) }), check)).toEqual(['the agent never asked for the refund']);
  });
});
