import { runDemoProcess } from '../helpers/demo-process';

describe('npm start -- --chat', () => {
  test('the scripted model answers a follow-up from an earlier message; the refund is approved inline', async () => {
    const { code, out } = await runDemoProcess(['--chat'], 'chat-demo');
    // The tests' server was running already: the demo says it joins it, and where, and starts none.
    expect(out).toContain(`[demo] Joining the Temporal server at ${process.env.TEMPORAL_TEST_ADDRESS} (TEMPORAL_ADDRESS): none is started.`);
    expect(out).toContain('ecommerce-cs> 请提供您的订单号');
    expect(out).toMatch(/ecommerce-cs> 订单 ORD-2024-002（Phone case）由 YTO Express 承运/);
    // Message 3 names no order: the refund is for the one named in message 2.
    expect(out).toMatch(/\? request_refund \{"order_id":"ORD-2024-002"/);
    expect(out).toContain('ecommerce-cs> 已为您提交退款申请 RF-ORD-2024-002');
    expect(out).toContain('Ended after 3 message(s).');
    expect(code).toBe(0);
  }, 120_000);
});
