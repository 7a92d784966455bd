import type { ScriptFunction, ScriptedRequest, ScriptedToolResult } from '../testing/scripted-model-types';

const ORDER_ID = /ORD-\d{4}-\d{3}/i;

function parse(result: ScriptedToolResult | undefined): Record<string, unknown> | undefined {
  if (!result) return undefined;
  try {
    return JSON.parse(result.content) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function answerFromResults(results: ScriptedToolResult[]): string {
  const refund = results.find((r) => r.name === 'request_refund');
  if (refund) {
    const data = parse(refund);
    if (data?.refundId) return `已为您提交退款申请 ${String(data.refundId)}，金额 ${String(data.amount)} 元，款项将原路退回。`;
    return `抱歉，退款申请未能提交：${refund.content}`;
  }
  const order = parse(results.find((r) => r.name === 'query_order'));
  const shipment = parse(results.find((r) => r.name === 'track_logistics'));
  if (shipment?.carrier) {
    return (
      `订单 ${String(order?.orderId ?? '')}（${String(order?.item ?? '')}）由 ${String(shipment.carrier)} 承运，` +
      `当前状态：${String(shipment.status)}，位置：${String(shipment.location)}（更新于 ${String(shipment.updatedAt)}），` +
      `预计 ${String(shipment.eta)} 送达。`
    );
  }
  return results.map((r) => r.content).join('\n');
}

/** The order id of the newest user message that names one: a follow-up ("refund it") means the order named before. */
function orderIdOf(request: ScriptedRequest): string | undefined {
  const said = request.messages.filter((m) => m.role === 'user' && typeof m.content === 'string').map((m) => m.content as string);
  for (const text of said.reverse()) {
    const found = ORDER_ID.exec(text)?.[0];
    if (found) return found.toUpperCase();
  }
  return undefined;
}

/**
 * What the demo's scripted model says when no OPENAI_API_KEY is set: it reads the customer's
 * order id (from an earlier message in a conversation), calls the shop's tools, and answers from
 * their real results.
 */
export const demoScript: ScriptFunction = (request, info) => {
  if (info.toolResults.length > 0) return answerFromResults(info.toolResults);
  const orderId = orderIdOf(request);
  if (!orderId) return '请提供您的订单号（例如 ORD-2024-001），我来帮您查询。';
  if (/退款|refund/i.test(info.lastUserText)) {
    return { toolCalls: [{ name: 'request_refund', arguments: { order_id: orderId, reason: info.lastUserText } }] };
  }
  return {
    toolCalls: [
      { name: 'query_order', arguments: { order_id: orderId } },
      { name: 'track_logistics', arguments: { order_id: orderId } },
    ],
  };
};
