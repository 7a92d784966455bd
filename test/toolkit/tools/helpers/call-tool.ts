import type { PermissionDecision, PermissionMode } from '../../../../src/common/permissions';
import type { AnyTool, ToolContext } from '../../../../src/toolkit/define-tool';

export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    runtime: {},
    agent: 'test-agent',
    workflowId: 'wf',
    runId: 'run',
    callId: 'call',
    idempotencyKey: 'wf:call',
    signal,
    heartbeat: () => undefined,
    suspend: () => {
      throw new Error('suspend is not expected in these tests');
    },
  };
}

export function findTool(tools: AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

export async function permissionOf(tool: AnyTool, input: Record<string, unknown>, mode: PermissionMode = 'default'): Promise<PermissionDecision | undefined> {
  const parsed = tool.input.parse(input);
  if (typeof tool.permission !== 'function') return undefined;
  return tool.permission(parsed, { runtime: {}, agent: 'test-agent', mode });
}

export async function run(tool: AnyTool, input: Record<string, unknown>, ctx: ToolContext = toolContext()): Promise<string> {
  return String(await tool.execute!(tool.input.parse(input), ctx));
}

export type GuardedOutcome =
  | { kind: 'refused'; decision: PermissionDecision }
  | { kind: 'asked'; decision: PermissionDecision }
  | { kind: 'failed'; message: string }
  | { kind: 'ran'; result: string; decision: PermissionDecision | undefined };

/**
 * What a call amounts to when the tool's own check is obeyed and anything it lets through
 * (allow or no opinion) is executed, as the most permissive configuration would.
 */
export async function guardedCall(tool: AnyTool, input: Record<string, unknown>, mode: PermissionMode = 'default'): Promise<GuardedOutcome> {
  const decision = await permissionOf(tool, input, mode);
  if (decision?.behavior === 'deny') return { kind: 'refused', decision };
  if (decision?.behavior === 'ask') return { kind: 'asked', decision };
  try {
    return { kind: 'ran', result: await run(tool, input), decision };
  } catch (error) {
    return { kind: 'failed', message: (error as Error).message };
  }
}
