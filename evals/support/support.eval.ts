import { defineEvalSuite } from '../../src/index';

/**
 * Does the README's first agent do its job? Four questions a customer asks it, each with what a
 * right answer holds: the real status of a known order, a refund that runs when approved and is
 * said to be refused when denied, and an unknown order said to be unknown. The refund's effect is
 * the case's stub, never the tool.
 */
export default defineEvalSuite({
  agents: './agents.ts',
  cases: [
    {
      name: 'track an order',
      agent: 'support',
      turns: ['Where is my order ORD-2024-001?'],
      expect: {
        status: 'completed',
        called: [{ tool: 'track_logistics', args: { order_id: 'ORD-2024-001' } }],
        notCalled: ['request_refund'],
        answer: { matches: '/in transit|tomorrow/i' },
      },
    },
    {
      name: 'a refund approved',
      agent: 'support',
      turns: ['My order ORD-2024-001 arrived broken. Please refund it.'],
      answers: [{ tool: 'request_refund', action: 'approve' }],
      tools: { request_refund: 'Refund of ORD-2024-001 requested (reference R-1).' },
      expect: {
        status: 'completed',
        called: [{ tool: 'request_refund', args: { order_id: 'ORD-2024-001' } }],
        answer: { matches: '/refund[\\s\\S]*(requested|processed|issued|initiated|submitted|approved|R-1)|(requested|processed|issued|initiated|submitted|approved)[\\s\\S]*refund/i' },
      },
    },
    {
      name: 'a refund denied',
      agent: 'support',
      turns: ['My order ORD-2024-001 arrived broken. Please refund it.'],
      answers: [{ tool: 'request_refund', action: 'deny', reason: 'The order is outside the 30-day return window.', times: 'every' }],
      tools: { request_refund: 'Refund of ORD-2024-001 requested (reference R-1).' },
      expect: {
        status: 'completed',
        called: [{ tool: 'request_refund', args: { order_id: 'ORD-2024-001' } }],
        answer: { matches: "/not|n't|unable|denied|declined|rejected|refused|window/i" },
      },
    },
    {
      name: 'an unknown order',
      agent: 'support',
      turns: ['Where is my order ORD-2024-999?'],
      expect: {
        status: 'completed',
        called: [{ tool: 'track_logistics', args: { order_id: 'ORD-2024-999' } }],
        notCalled: ['request_refund'],
        answer: { matches: "/no order|not( been| be)? found|could(n't| not) (be )?(find|found|locate)|no record|unable to (find|locate)|does(n't| not) exist|no information|invalid/i" },
      },
    },
  ],
});
