import { ActivityFailure, isCancellation } from '@temporalio/workflow';
import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import type { ExecuteToolOutput, PreparedCall, RanToolOutput, ToolCallResult } from '../../common/contracts/tool-calls';
import type { ToolCall } from '../../common/messages';
import { activities, describeStepFailure } from '../platform';
import { askForResult, awaitExternalResult, beginRun } from '../calls';
import type { Reading } from '../state';
import { toolSchedule } from './tool-defaults';
import { specOf } from '../toolset';
import { mayAsk } from './may-ask';


type Check = NonNullable<Parameters<typeof activities.executeTool>[0]['check']>;

/**
 * Whether the batch's call is checked by the activity that runs it, instead of a local activity
 * before it: one activity and one workflow activation less for a call the rules allow. Only for a
 * batch of one call to a worker's tool (not an external, sub-agent or Nexus one) that the engine
 * will not ask about (see may-ask.ts), in runs described with the feature: a call that may wait
 * for a person, and the calls of a batch of several, are checked first as before, so approvals are
 * asked before anything of the batch runs.
 */
export function checksInExecute(state: Reading, forWorker: readonly ToolCall[]): boolean {
  if (forWorker.length !== 1 || !state.descriptor.runtimeFeatures?.includes(RUNTIME_FEATURES.checkInExecute)) return false;
  const spec = specOf(state.descriptor, forWorker[0]!.name);
  return Boolean(spec && !spec.external && !spec.subAgent && !spec.nexus && !mayAsk(state.descriptor, spec));
}

async function schedule(state: Reading, call: ToolCall, input: unknown, check?: Check): Promise<ExecuteToolOutput | { failed: string }> {
  const plan = toolSchedule(specOf(state.descriptor, call.name)!);
  try {
    return await activities.executeTool.executeWithOptions({ summary: `tool ${call.name}`, ...plan.options }, [
      {
        agent: state.agent,
        tool: call.name,
        callId: call.id,
        input,
        runtime: state.runtime,
        maxResultChars: state.descriptor.maxResultChars,
        budget: plan.budget,
        ...(check ? { check } : {}),
      },
    ]);
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return { failed: `Error: Tool execution failed: ${describeStepFailure(error)}` };
  }
}

/** What a run gave: its result, or the external result it suspended for. */
async function outcomeOf(state: Reading, call: ToolCall, input: unknown, ran: RanToolOutput): Promise<ToolCallResult> {
  if (ran.kind === 'result') return ran.result;
  askForResult(state, call.id, input, ran.reason);
  return awaitExternalResult(state, call.id);
}

/** Runs an allowed call's tool on a worker; a lost worker or the tool's own failures, once they are final, are an error result. */
export async function runOnWorker(state: Reading, call: ToolCall, input: unknown): Promise<ToolCallResult> {
  beginRun(state, call.id, input);
  const output = await schedule(state, call, input);
  const result = 'failed' in output ? { content: output.failed, state: 'error' as const } : await outcomeOf(state, call, input, output as RanToolOutput);
  return result;
}

/**
 * The check and, when the rules allow, the run, in one activity (its start was told when the
 * check began, see calls' startChecking). A call the check did not run (denied, invalid input)
 * comes back as the check's answer for the batch to go on with, as if prepareToolCalls had given it.
 */
export async function checkAndRun(state: Reading, call: ToolCall): Promise<{ prepared: PreparedCall; result?: ToolCallResult }> {
  const check = { call, mode: state.descriptor.permissions.mode ?? 'default', sessionRules: state.sessionRules };
  const output = await schedule(state, call, undefined, check);
  if ('failed' in output) {
    const result: ToolCallResult = { content: output.failed, state: 'error' };
    return { prepared: { callId: call.id, tool: call.name, outcome: 'result', result }, result };
  }
  const checked = output as Extract<ExecuteToolOutput, { kind: 'checked' }>;
  const { prepared } = checked;
  if (!checked.ran || prepared.outcome !== 'run') return { prepared };
  beginRun(state, call.id, prepared.input);
  if (checked.ran.kind === 'result' && hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.leanSteps)) return { prepared, result: checked.ran.result };
  return { prepared, result: await outcomeOf(state, call, prepared.input, checked.ran) };
}
