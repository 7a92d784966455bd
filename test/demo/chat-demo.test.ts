import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** `npm start -- --chat` without a terminal, on the tests' server: the demo's conversation, played to its end. */
function runChatDemo(): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'src', 'demo', 'main.ts'), '--chat'], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS!, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', TEMPORAL_TASK_QUEUE: `chat-demo-${Date.now()}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

describe('npm start -- --chat', () => {
  test('the scripted model answers a follow-up from an earlier message; the refund is approved inline', async () => {
    const { code, out } = await runChatDemo();
    expect(out).toContain('ecommerce-cs> 请提供您的订单号');
    expect(out).toMatch(/ecommerce-cs> 订单 ORD-2024-002（Phone case）由 YTO Express 承运/);
    // Message 3 names no order: the refund is for the one named in message 2.
    expect(out).toMatch(/\? request_refund \{"order_id":"ORD-2024-002"/);
    expect(out).toContain('ecommerce-cs> 已为您提交退款申请 RF-ORD-2024-002');
    expect(out).toContain('Ended after 3 message(s).');
    expect(code).toBe(0);
  }, 120_000);
});
