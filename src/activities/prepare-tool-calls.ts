import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../common/failures';
import type { ToolCall } from '../common/messages';
import type { PermissionDecision, PermissionMode } from '../common/permissions';
import type { RuntimeContext } from '../common/runtime';
import { evaluatePermission } from '../permissions';
import type { RegisteredAgent } from '../toolkit/agent-registry';
import type { RegisteredTool } from '../toolkit/registered-tool';
import { errorResult } from '../toolkit/tool-result';
import { parseToolArguments } from '../toolkit/validate-input';
import type { PreparedCall, PrepareToolCallsInput, ValidateEditedInputInput, ValidateEditedInputOutput } from '../common/contracts/tool-calls';
import type { ServedAgents } from './served-agent';
import type { ApprovalPolicies, PolicyRequest } from '../policy';

/** Model input (or a person's edited input) with the agent's presets merged over it: the preset wins. */
export function parseAndValidate(
  agent: RegisteredAgent,
  tool: RegisteredTool,
  raw: Record<string, unknown>,
): ValidateEditedInputOutput {
  const presets = agent.definition.presets?.[tool.spec.name] ?? {};
  const outcome = tool.validate({ ...raw, ...presets });
  return outcome.ok ? { ok: true, input: outcome.value } : { ok: false, message: outcome.message };
}

function patternValue(tool: RegisteredTool, input: unknown): string | undefined {
  if (!tool.patternField || typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[tool.patternField];
  return typeof value === 'string' ? value : undefined;
}

async function ownCheck(
  tool: RegisteredTool,
  input: unknown,
  ctx: { runtime: RuntimeContext; agent: string; mode: PermissionMode },
): Promise<PermissionDecision | undefined> {
  const permission = tool.permission;
  if (permission === undefined) return undefined;
  if (typeof permission === 'function') return (await permission(input, ctx)) ?? undefined;
  return { behavior: permission, reason: `the tool '${tool.spec.name}' declares permission '${permission}'` };
}

/** The run this activity works for (a test that calls prepareOne outside an activity has none). */
function currentRun(): { workflowId: string; runId: string } {
  try {
    const run = Context.current().info.workflowExecution;
    return { workflowId: run?.workflowId ?? '', runId: run?.runId ?? '' };
  } catch {
    return { workflowId: '', runId: '' };
  }
}

/** What the call's approval policy decides about: the run's user, the tool, its arguments, the run. */
function policyRequest(agent: string, tool: string, args: unknown, input: Omit<PrepareToolCallsInput, 'agent' | 'calls'>, asked: PermissionDecision): PolicyRequest {
  const { userId, sessionId } = input.runtime;
  return {
    user: typeof userId === 'string' ? { id: userId } : {},
    tool,
    arguments: args,
    context: {
      agent,
      ...currentRun(),
      ...(typeof sessionId === 'string' ? { sessionId } : {}),
      mode: input.mode,
      askedBecause: asked.reason,
      safety: asked.safety ?? false,
      runtime: input.runtime,
    },
  };
}

/** Whether a Nexus endpoint exists on the cluster (see worker/nexus-endpoints.ts). */
export type NexusEndpointLookup = (endpoint: string) => Promise<boolean>;

/** A nexusTool's call on an endpoint the cluster lacks: an error result instead of a command the server refuses. */
async function missingEndpoint(tool: RegisteredTool, nexusEndpoints: NexusEndpointLookup | undefined): Promise<string | undefined> {
  const nexus = tool.spec.nexus;
  if (!nexus || !nexusEndpoints || (await nexusEndpoints(nexus.endpoint))) return undefined;
  return `Error: the Nexus endpoint '${nexus.endpoint}' does not exist on this cluster, so ${nexus.service}/${nexus.operation} was not started`;
}

export async function prepareOne(
  agent: RegisteredAgent,
  call: ToolCall,
  input: Omit<PrepareToolCallsInput, 'agent' | 'calls'>,
  policies?: ApprovalPolicies,
  nexusEndpoints?: NexusEndpointLookup,
): Promise<PreparedCall> {
  const base = { callId: call.id, tool: call.name };
  const tool = agent.toolkit.get(call.name);
  if (!tool) {
    if (input.onMissing === 'report') return { ...base, outcome: 'unavailable' };
    // The run's recorded tool list has it (the workflow checked), so another worker may serve it.
    throw ApplicationFailure.retryable(
      `Tool '${call.name}' of agent '${agent.definition.name}' is not available on this worker (is its MCP server connected?).`,
      FailureTypes.toolUnavailable,
    );
  }

  const parsed = parseToolArguments(call.name, call.arguments);
  if (!parsed.ok) return { ...base, outcome: 'result', result: errorResult(parsed.message) };
  const validated = parseAndValidate(agent, tool, parsed.value);
  if (!validated.ok) return { ...base, outcome: 'result', result: errorResult(validated.message) };

  const settings = { ...agent.descriptor.permissions, mode: input.mode };
  const checkCtx = { runtime: input.runtime, agent: agent.definition.name, mode: input.mode };
  const ruled = evaluatePermission({
    tool: {
      name: tool.spec.name,
      readOnly: tool.spec.readOnly,
      edits: tool.edits,
      patternValue: patternValue(tool, validated.input),
      patternKind: tool.patternKind,
    },
    toolDecision: await ownCheck(tool, validated.input, checkCtx),
    settings,
    sessionRules: input.sessionRules,
  });
  // Only what the rules ask about reaches the call's approval policy: it allows, denies or asks a person.
  const decision =
    ruled.behavior === 'ask' && policies ? await policies.review(policyRequest(agent.definition.name, tool.spec.name, validated.input, input, ruled), ruled) : ruled;
  if (decision.behavior === 'deny') {
    return {
      ...base,
      outcome: 'result',
      decision,
      result: { content: decision.policy ? `Permission denied: ${decision.reason}` : `Permission denied by rules: ${decision.reason}`, state: 'denied' },
    };
  }
  const unreachable = await missingEndpoint(tool, nexusEndpoints);
  if (unreachable) return { ...base, outcome: 'result', result: errorResult(unreachable) };
  if (decision.behavior === 'ask') return { ...base, outcome: 'ask', input: validated.input, decision };
  if (tool.spec.external) return { ...base, outcome: 'external', input: validated.input };
  return { ...base, outcome: 'run', input: validated.input, decision };
}

export function prepareToolCallsActivity(agents: ServedAgents, policies?: ApprovalPolicies, nexusEndpoints?: NexusEndpointLookup) {
  return async function prepareToolCalls(input: PrepareToolCallsInput): Promise<PreparedCall[]> {
    // The local check on a worker that serves another agents module: the task queue's workers check instead.
    if (input.onMissing === 'report' && !agents.serves(input.agent)) return input.calls.map((call) => ({ callId: call.id, tool: call.name, outcome: 'unavailable' }));
    const agent = agents.require(input.agent);
    const prepared: PreparedCall[] = [];
    for (const call of input.calls) prepared.push(await prepareOne(agent, call, input, policies, nexusEndpoints));
    return prepared;
  };
}

export function validateEditedInputActivity(agents: ServedAgents) {
  return async function validateEditedInput(input: ValidateEditedInputInput): Promise<ValidateEditedInputOutput> {
    const agent = agents.require(input.agent);
    const tool = agent.toolkit.get(input.tool);
    if (!tool) {
      throw ApplicationFailure.retryable(`Tool '${input.tool}' of agent '${input.agent}' is not available on this worker (is its MCP server connected?).`, FailureTypes.toolUnavailable);
    }
    if (typeof input.input !== 'object' || input.input === null || Array.isArray(input.input)) {
      return { ok: false, message: `Edited input for '${input.tool}' must be a JSON object.` };
    }
    return parseAndValidate(agent, tool, input.input as Record<string, unknown>);
  };
}
