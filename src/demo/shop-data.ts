/** A small built-in data set for the customer-service demo. */
export interface Order {
  orderId: string;
  userId: string;
  item: string;
  amount: number;
  status: 'paid' | 'shipped' | 'delivered' | 'refunded';
  trackingNumber?: string;
}

export interface Shipment {
  trackingNumber: string;
  carrier: string;
  status: string;
  location: string;
  updatedAt: string;
  eta: string;
}

export const ORDERS: Order[] = [
  { orderId: 'ORD-2024-001', userId: 'u-1001', item: 'Wireless earbuds', amount: 399, status: 'shipped', trackingNumber: 'SF1234567890' },
  { orderId: 'ORD-2024-002', userId: 'u-1001', item: 'Phone case', amount: 59, status: 'delivered', trackingNumber: 'YT9876543210' },
  { orderId: 'ORD-2024-003', userId: 'u-2002', item: 'Mechanical keyboard', amount: 699, status: 'paid' },
];

export const SHIPMENTS: Shipment[] = [
  { trackingNumber: 'SF1234567890', carrier: 'SF Express', status: 'in transit', location: 'Hangzhou sorting center', updatedAt: '2024-11-28 09:12', eta: '2024-11-30' },
  { trackingNumber: 'YT9876543210', carrier: 'YTO Express', status: 'delivered', location: 'Shanghai, signed by customer', updatedAt: '2024-11-20 16:40', eta: '2024-11-20' },
];

export const WEATHER: Record<string, string> = {
  hangzhou: 'Light rain, 12°C',
  shanghai: 'Cloudy, 14°C',
  beijing: 'Sunny, 3°C',
};
