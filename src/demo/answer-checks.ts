import type { AgentRunResult } from '../common/run';
import { readTextToolCalls } from '../model/text-tool-calls';
import { ORDERS, SHIPMENTS } from './shop-data';

/**
 * What the demo checks of each answer, so a wrong answer is said plainly instead of passing for
 * one: a model may end a run well and still answer wrong (a tool call written as text, a status it
 * made up, a refund it says was made when the person refused it). The agent answers in the
 * customer's language, so the words are looked for in English and in Chinese.
 */
export interface AnswerCheck {
  /** What the answer must do, as the demo prints it. */
  what: string;
  /** What is wrong with the run's answer; undefined when it passes. */
  problem(result: AgentRunResult): string | undefined;
}

const STATUS_WORDS: Record<string, string[]> = {
  paid: ['paid', 'not shipped', '已付款', '已支付', '待发货', '未发货'],
  shipped: ['shipped', '已发货'],
  'in transit': ['in transit', '运输中', '运送中', '配送中', '在途', '途中'],
  delivered: ['delivered', '已签收', '签收', '已送达', '已妥投'],
  refunded: ['refunded', '已退款'],
};
const REFUND_MADE = ['refund submitted', 'refund requested', 'refunded', 'submitted', '已提交', '已为您提交', '已申请', '已发起', '已退款', '退款成功'];
const REFUND_REFUSED = ['denied', 'refused', 'declined', 'rejected', 'not approved', 'could not', 'was not', '拒绝', '驳回', '未能', '未通过', '未获', '无法', '没有通过', '不能'];

const mentions = (text: string, words: readonly string[]) => words.some((word) => text.toLowerCase().includes(word.toLowerCase()));
const quoted = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** Every answer: the run completed with a text answer, not a tool call written as text. */
export const answered: AnswerCheck = {
  what: 'the run completed with an answer that is not a tool call',
  problem(result) {
    if (result.status !== 'completed') return `the run ended ${result.status}: ${quoted(result.output)}`;
    if (result.output.trim() === '') return 'the answer is empty';
    const read = readTextToolCalls({ role: 'assistant', content: result.output }, 1);
    if (read.toolCalls?.length) return `the answer is a call of ${read.toolCalls.map((call) => call.name || '?').join(', ')} written as text, not an answer: ${quoted(result.output)}`;
    return undefined;
  },
};

/** The tracking answer states the order's real status (the order's or its shipment's, from shop-data.ts). */
export function statesOrderStatus(orderId: string): AnswerCheck {
  const order = ORDERS.find((o) => o.orderId === orderId);
  const shipment = SHIPMENTS.find((s) => s.trackingNumber === order?.trackingNumber);
  const statuses = [order?.status, shipment?.status].filter((status): status is string => status !== undefined);
  return {
    what: `the answer states the real status of ${orderId} (${statuses.join(', ')})`,
    problem(result) {
      const words = statuses.flatMap((status) => STATUS_WORDS[status] ?? [status]);
      return mentions(result.output, words) ? undefined : `it names neither status: ${quoted(result.output)}`;
    },
  };
}

/** The refund's call as the run ended it: made when the tool ran, refused when the person denied it (or it failed). */
function refundOutcome(result: AgentRunResult): 'made' | 'refused' | undefined {
  const last = result.messages.filter((m) => m.role === 'tool' && m.name === 'request_refund').at(-1);
  if (!last || last.role !== 'tool') return undefined;
  return last.state === 'success' ? 'made' : 'refused';
}

/** The refund answer says the refund was made, or refused, as the person chose. */
export function reportsRefund(orderId: string): AnswerCheck {
  const refundId = `RF-${orderId}`;
  return {
    what: `the answer says the refund of ${orderId} was made or refused, as the person chose`,
    problem(result) {
      const outcome = refundOutcome(result);
      if (!outcome) return 'the agent never asked for the refund';
      const text = result.output;
      const saysMade = (text.includes(refundId) || mentions(text, REFUND_MADE)) && !mentions(text, REFUND_REFUSED);
      const saysRefused = mentions(text, REFUND_REFUSED) && !text.includes(refundId);
      if (outcome === 'made' && !saysMade) return `the refund was made (${refundId}), but the answer does not say so: ${quoted(text)}`;
      if (outcome === 'refused' && !saysRefused) return `the refund was refused, but the answer does not say so: ${quoted(text)}`;
      return undefined;
    },
  };
}

/** The checks' verdicts on one answer: the problems, each with what was checked. */
export function failedChecks(result: AgentRunResult, checks: readonly AnswerCheck[]): { what: string; problem: string }[] {
  return checks.flatMap((check) => {
    const problem = check.problem(result);
    return problem === undefined ? [] : [{ what: check.what, problem }];
  });
}
