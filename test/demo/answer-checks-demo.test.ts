import { runDemoProcess } from '../helpers/demo-process';

describe('npm start: each answer is checked', () => {
  test("the scripted model's answers pass: the tracking answer states the order's status, the refund answer that it was made", async () => {
    const { code, out } = await runDemoProcess([], 'checks-demo', { DEMO_APPROVE: 'yes' });
    expect(out).toContain('[demo] check passed: the answer states the real status of ORD-2024-001 (shipped, in transit)');
    expect(out).toContain('[demo] check passed: the answer says the refund of ORD-2024-002 was made or refused, as the person chose');
    expect(out).not.toContain('CHECK FAILED');
    expect(out).toContain('[demo] Done.');
    expect(code).toBe(0);
  }, 120_000);

  test('wrong answers (DEMO_WRONG_ANSWERS=1: a tool call written as text, a refund said refused that was made) are said plainly, and the demo exits 1', async () => {
    const { code, out } = await runDemoProcess([], 'wrong-demo', { DEMO_APPROVE: 'yes', DEMO_WRONG_ANSWERS: '1' });
    expect(out).toContain(
      '[demo] CHECK FAILED: the run completed with an answer that is not a tool call: the answer is a call of track_logistics written as text, not an answer: "{\\"name\\": \\"track_logistics\\", \\"arguments\\": {\\"order_id\\":\\"ORD-2024-001\\"}}"',
    );
    expect(out).toMatch(/\[demo\] CHECK FAILED: the answer states the real status of ORD-2024-001 \(shipped, in transit\): it names neither status: /);
    expect(out).toContain('[demo] CHECK FAILED: the answer says the refund of ORD-2024-002 was made or refused, as the person chose: the refund was made (RF-ORD-2024-002), but the answer does not say so: "抱歉，退款申请未能提交。"');
    expect(out).toContain('[demo] 3 answer check(s) FAILED');
    expect(out).not.toContain('[demo] Done.');
    expect(code).toBe(1);
  }, 120_000);
});
