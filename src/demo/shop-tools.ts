import { z } from 'zod';
import { defineTool } from '../toolkit/define-tool';
import { ORDERS, SHIPMENTS, WEATHER } from './shop-data';

export const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order: item, amount, status and tracking number.',
  input: z.object({ order_id: z.string().describe('Order id, e.g. ORD-2024-001') }),
  readOnly: true,
  execute: ({ order_id }) => ORDERS.find((o) => o.orderId === order_id) ?? `No order ${order_id} was found.`,
});

export const trackLogistics = defineTool({
  name: 'track_logistics',
  description: 'Track the shipping status of an order.',
  input: z.object({ order_id: z.string().describe('Order id, e.g. ORD-2024-001') }),
  readOnly: true,
  execute: ({ order_id }) => {
    const order = ORDERS.find((o) => o.orderId === order_id);
    if (!order) return `No order ${order_id} was found.`;
    if (!order.trackingNumber) return `Order ${order_id} has not shipped yet.`;
    return SHIPMENTS.find((s) => s.trackingNumber === order.trackingNumber) ?? `No tracking data for ${order.trackingNumber}.`;
  },
});

export const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city (for delivery estimates).',
  input: z.object({ city: z.string().describe('City name in English, e.g. Hangzhou') }),
  readOnly: true,
  execute: ({ city }) => WEATHER[city.toLowerCase()] ?? `No weather data for ${city}.`,
});

export const requestRefund = defineTool({
  name: 'request_refund',
  description: 'Request a refund for an order. Needs a reason.',
  input: z.object({
    order_id: z.string().describe('Order id, e.g. ORD-2024-001'),
    reason: z.string().describe('Why the customer wants a refund'),
  }),
  execute: ({ order_id, reason }, ctx) => {
    const order = ORDERS.find((o) => o.orderId === order_id);
    if (!order) return `No order ${order_id} was found.`;
    return { refundId: `RF-${order_id}`, orderId: order_id, amount: order.amount, reason, requestedBy: ctx.runtime.userId ?? 'unknown' };
  },
});
