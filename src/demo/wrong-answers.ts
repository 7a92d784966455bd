import type { ScriptFunction } from '../testing/scripted-model-types';

/**
 * DEMO_WRONG_ANSWERS=1: the scripted model answers the customer-service questions wrong on
 * purpose, as a small model does, so the demo's answer checks can be seen to fail: the tracking
 * answer is a tool call written as text, and the refund answer says the opposite of what the
 * person chose. Everything else is the demo's own script.
 */
export function withWrongAnswers(script: ScriptFunction): ScriptFunction {
  return (request, info) => {
    const refund = info.toolResults.find((result) => result.name === 'request_refund');
    if (refund) {
      const orderId = /ORD-\d{4}-\d{3}/.exec(refund.arguments)?.[0] ?? '';
      return refund.content.trimStart().startsWith('{') ? '抱歉，退款申请未能提交。' : `已为您提交退款申请 RF-${orderId}，款项将原路退回。`;
    }
    const tracked = info.toolResults.find((result) => result.name === 'track_logistics');
    if (tracked) return `{"name": "track_logistics", "arguments": ${tracked.arguments}}`;
    return script(request, info);
  };
}
