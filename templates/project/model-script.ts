// What the scripted model answers when no model is configured: `npm run dev` without OPENAI_API_KEY,
// and the test. It is no LLM: it reads the order id and the amount from the question, calls the tools,
// and answers from their results. Teach it your agents' moves as you add them.
import type { ScriptFunction } from 'durable-agent/testing';

const ORDER_ID = /\b[A-Z]-\d+\b/i;
const REFUND = /\brefund\D{0,20}?(\d+(?:\.\d+)?)/i;

function parsed(text: string): { status?: string; eta?: string } {
  try {
    return JSON.parse(text) as { status?: string; eta?: string };
  } catch {
    return {};
  }
}

export const modelScript: ScriptFunction = (request, info) => {
  const question = info.lastUserText;
  const orderId = ORDER_ID.exec(question)?.[0].toUpperCase();
  if (!orderId) return 'Which order is it? Give me its id, e.g. A-1001.';
  // Every result so far, by the tool that gave it.
  const calls = new Map(request.messages.flatMap((m) => m.tool_calls ?? []).map((call) => [call.id, call.function.name]));
  const results = new Map(request.messages.filter((m) => m.role === 'tool').map((m) => [calls.get(m.tool_call_id ?? ''), String(m.content)]));
  const amount = REFUND.exec(question)?.[1];
  if (!results.has('lookup_order')) return { toolCalls: [{ name: 'lookup_order', arguments: { order_id: orderId } }] };
  if (amount && !results.has('refund')) return { toolCalls: [{ name: 'refund', arguments: { order_id: orderId, amount: Number(amount) } }] };
  const order = parsed(results.get('lookup_order')!);
  const answer = `Order ${orderId} is ${order.status ?? 'on its way'}, arriving ${order.eta ?? 'soon'}.`;
  const refund = results.get('refund');
  if (refund === undefined) return answer;
  return /requested/.test(refund) ? `${answer} The refund of ${amount} is requested.` : `${answer} The refund was not made: ${refund}`;
};
