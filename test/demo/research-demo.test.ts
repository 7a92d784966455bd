import { runDemoProcess } from '../helpers/demo-process';

describe('npm start -- --agent research', () => {
  test("three researchers run as child workflows side by side, their steps indented; one's approval is answered through the lead", async () => {
    const { code, out } = await runDemoProcess(['--agent', 'research'], 'research-demo');
    const lines = out.split('\n');
    const started = lines.filter((line) => /^\d\d:\d\d:\d\d   ▶ sub-agent researcher \(research-[^/]+\/call_0_\d\): /.test(line));
    expect(started).toHaveLength(3);
    // All three were reading before any of them finished.
    const firstRead = lines.findIndex((line) => /^ {4}\d\d:\d\d:\d\d   ◀ tool read_notes success/.test(line));
    const reads = lines.filter((line, i) => i < firstRead && /^ {4}\d\d:\d\d:\d\d   ▶ tool read_notes /.test(line));
    expect(reads).toHaveLength(3);
    expect(out).toMatch(/^ {4}\d\d:\d\d:\d\d   \? ask_expert .* needs approval/m);
    expect(out).toContain('→ yes (DEMO_APPROVE=yes)');
    expect(out).toMatch(/^ {4}\d\d:\d\d:\d\d   ◀ tool ask_expert success/m);
    expect(out).toMatch(/■ completed: Brief: agents belong in durable workflows\. - durable execution: .* - child workflows: .* - human approval: .*The expert answers/);
    expect(code).toBe(0);
  }, 120_000);
});
