import type { ToolContext } from '../../../src/toolkit/define-tool';

export interface FakeToolContext extends ToolContext {
  heartbeats: unknown[];
}

export function fakeToolContext(overrides: Partial<ToolContext> = {}): FakeToolContext {
  const heartbeats: unknown[] = [];
  return {
    runtime: { userId: 'user-7', sessionId: 'session-3' },
    agent: 'test-agent',
    workflowId: 'wf-1',
    runId: 'run-1',
    callId: 'call-1',
    idempotencyKey: 'wf-1:call-1',
    signal: new AbortController().signal,
    heartbeat: (details) => heartbeats.push(details),
    suspend: () => {
      throw new Error('suspend is not expected in MCP tests');
    },
    ...overrides,
    heartbeats,
  };
}
