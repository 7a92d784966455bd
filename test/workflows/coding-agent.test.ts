import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolMessage } from '../../src/common/messages';
import { CODER_PROMPT, coderAgent } from '../../src/demo/coder-agent';
import { coderScript } from '../../src/demo/coder-script';
import { prepareCoderWorkspace } from '../../src/demo/coder-workspace';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { maybeRecordHistory } from '../helpers/record-history';

async function nextPending(env: AgentTestEnv, id: string, tool: string) {
  for (;;) {
    const call = (await env.client.get(id).state()).pending.find((p) => p.tool === tool);
    if (call) return call;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the coding agent', () => {
  let env: AgentTestEnv;
  let workspace: string;
  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'coder-ws-'));
    env = await startAgentTestEnv({ agents: [coderAgent({ workspace })], script: coderScript });
  });
  afterAll(async () => {
    await env?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('reads, edits (after approval) and tests a small file', async () => {
    const project = prepareCoderWorkspace(workspace);
    const run = await env.client.start('coder', { prompt: CODER_PROMPT });

    const edit = await nextPending(env, run.workflowId, 'edit_file');
    expect(edit.decision?.reason).toContain("ask rule 'edit_file'");
    // Nothing is written before the person says yes.
    expect(readFileSync(join(project, 'sum.js'), 'utf8')).toContain('let i = 1;');
    await run.approve(edit.callId);

    const test = await nextPending(env, run.workflowId, 'bash');
    expect(test.input).toMatchObject({ command: 'node coder-demo/sum.test.js' });
    await run.approve(test.callId);

    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(readFileSync(join(project, 'sum.js'), 'utf8')).toContain('for (let i = 0; i < values.length; i++)');
    const tools = result.messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'edit_file', 'bash']);
    expect(tools[0].content).toContain('let i = 1;');
    expect(tools[2].content).toMatch(/^Exit code: 0/);
    expect(result.output).toContain('sum.test.js: all 3 checks passed');
    await maybeRecordHistory(run, 'coding-agent');
  });

  test('a denied edit leaves the file as it was', async () => {
    const project = prepareCoderWorkspace(workspace);
    const before = readFileSync(join(project, 'sum.js'), 'utf8');
    const run = await env.client.start('coder', { prompt: CODER_PROMPT });
    const edit = await nextPending(env, run.workflowId, 'edit_file');
    await run.deny(edit.callId, 'not now');
    const result = await run.result();
    expect(result.output).toBe('I did not change the file: Permission denied by user: not now');
    expect(readFileSync(join(project, 'sum.js'), 'utf8')).toBe(before);
  });
});
