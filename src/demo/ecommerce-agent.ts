import { defineAgent } from '../toolkit/define-agent';
import { getWeather, queryOrder, requestRefund, trackLogistics } from './shop-tools';

/** The order DEMO_PROMPT asks about (its data: shop-data.ts). */
export const DEMO_ORDER = 'ORD-2024-001';
export const DEMO_PROMPT = `帮我查一下订单 ${DEMO_ORDER} 的物流状态`;

export const ecommerceAgent = defineAgent({
  name: 'ecommerce-cs',
  instructions:
    'You are a customer-service agent of an online shop. Use the tools to look up orders, shipments and weather; ' +
    'answer in the language of the customer, briefly and precisely. Refunds need a reason and a person\'s approval.',
  tools: [queryOrder, trackLogistics, getWeather, requestRefund],
  permissions: { mode: 'default', ask: ['request_refund'] },
  maxIters: 10,
});
