import {
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  workflowInfo,
} from '@temporalio/workflow';
import type { ToolCallResult } from '../../common/contracts/tool-calls';
import { emptyUsage, type ToolCall } from '../../common/messages';
import { START_INPUT_VERSION, type AgentRunResult, type AgentWorkflowInput, type SubAgentUsage } from '../../common/run';
import type { SubAgentSpec } from '../../common/tools';
import { apply, preview } from '../effects';
import type { Reading } from '../state';
import { enterSubAgent, exitSubAgent, type SubAgentEnd } from '../calls';
import { budgetForSubAgent, chargeSubAgent, spendingOf, takeSubAgentAllowance } from '../spend';
import type { Budget } from '../../common/budget';

/** A `{ task }` input is the sub-agent's prompt as it is; any other input is handed over as JSON. */
export function subAgentPrompt(input: unknown): string {
  const fields = input && typeof input === 'object' ? Object.keys(input) : [];
  const task = (input as { task?: unknown } | null)?.task;
  if (fields.length === 1 && typeof task === 'string') return task;
  return `Your input:\n${JSON.stringify(input, null, 2)}`;
}

/** Deterministic, so a replay (or a retried parent task) finds the same child: `<parent's workflow id>/<call id>`. */
export function subAgentWorkflowId(parentWorkflowId: string, callId: string): string {
  return `${parentWorkflowId}/${callId}`;
}

function childOptions(spec: SubAgentSpec, budget: Budget | undefined): Pick<AgentWorkflowInput, 'options'> {
  if (spec.maxIters === undefined && !budget) return {};
  return { options: { ...(spec.maxIters !== undefined ? { maxIters: spec.maxIters } : {}), ...(budget ? { budget } : {}) } };
}

/** What the parent's model reads of a sub-agent's answer: a stop short of the answer is said as such. */
function answerOf(result: AgentRunResult): string {
  if (result.status !== 'budget_exhausted') return result.output;
  return `The sub-agent stopped before it finished: its budget was reached and not raised. What it wrote last:\n${result.output}`;
}

function failureText(error: ChildWorkflowFailure): string {
  if (isCancellation(error)) return 'it was cancelled';
  return error.cause?.message ?? error.message;
}

/**
 * Runs the agent a tool names as a child workflow and hands back its answer as the call's result.
 * Its failure (or its cancellation by someone else) is an error result the parent's model reads;
 * only the parent's own cancellation ends the parent.
 */
export async function runSubAgent(state: Reading, call: ToolCall, input: unknown, spec: SubAgentSpec): Promise<ToolCallResult> {
  const parentId = workflowInfo().workflowId;
  const workflowId = subAgentWorkflowId(parentId, call.id);
  const depth = (state.parent?.depth ?? 0) + 1;
  const base = { callId: call.id, workflowId, agent: spec.agent };
  if (depth > spec.maxDepth) {
    const content = `Error: the '${spec.agent}' agent was not started: it would run ${depth} levels below the top-level run, and sub-agents may nest at most ${spec.maxDepth} deep.`;
    chargeSubAgent(state, { ...base, status: 'refused', usage: emptyUsage() });
    apply(state, { events: [{ type: 'subagent_finished', ...base, status: 'refused', usage: emptyUsage(), preview: preview(content) }] });
    return { content, state: 'error' };
  }

  const prompt = subAgentPrompt(input);
  const childInput: AgentWorkflowInput = {
    agent: spec.agent,
    prompt,
    startInputVersion: START_INPUT_VERSION,
    runtime: spec.inheritRuntime ? state.runtime : {},
    ...childOptions(spec, budgetForSubAgent(state)),
    parent: {
      workflowId: parentId,
      callId: call.id,
      depth,
      root: state.parent ? state.parent.root ?? { workflowId: state.parent.workflowId } : { workflowId: parentId, agent: state.agent },
      ...(spec.inheritSessionRules ? { sessionRules: state.sessionRules } : {}),
    },
  };
  enterSubAgent(state, call.id, { workflowId, agent: spec.agent, depth, task: preview(prompt) });
  let end: SubAgentEnd | undefined;
  try {
    const result = await executeChild<(input: AgentWorkflowInput) => Promise<AgentRunResult>>('agentWorkflow', {
      workflowId,
      args: [childInput],
      // Cancelling the parent cancels the child, and waits until its tools have seen the cancellation.
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      staticSummary: `sub-agent ${spec.agent}: ${preview(prompt, 180)}`,
    });
    const entry: SubAgentUsage = { ...base, status: result.status, usage: result.usage, ...(result.cost !== undefined ? { cost: result.cost } : {}) };
    chargeSubAgent(state, entry);
    takeSubAgentAllowance(state, result.budget?.raised);
    end = { ...withoutCallId(entry), preview: preview(result.output) };
    return { content: answerOf(result), state: result.status === 'budget_exhausted' ? 'error' : 'success' };
  } catch (error) {
    if (!(error instanceof ChildWorkflowFailure) || CancellationScope.current().consideredCancelled) throw error;
    const content = `Error: the '${spec.agent}' agent (run ${workflowId}) failed: ${failureText(error)}`;
    const entry: SubAgentUsage = { ...base, status: 'failed', usage: emptyUsage(), ...spendingOf(error.cause) };
    chargeSubAgent(state, entry);
    end = { ...withoutCallId(entry), preview: preview(content) };
    return { content, state: 'error' };
  } finally {
    exitSubAgent(state, call.id, end);
  }
}

function withoutCallId({ callId: _callId, ...rest }: SubAgentUsage): Omit<SubAgentUsage, 'callId'> {
  return rest;
}
