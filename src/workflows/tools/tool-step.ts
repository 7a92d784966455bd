import { hasRuntimeFeature, RUNTIME_FEATURES } from '../../common/runtime-features';
import type { PreparedCall, ToolCallResult } from '../../common/contracts/tool-calls';
import type { ToolCall, ToolMessage } from '../../common/messages';
import { activities, localActivities } from '../platform';
import { type AskCall, askForResult, awaitApprovals, awaitExternalResult, beginBatch, beginChecks, finishBatch, type GateOutcome, reusableRun, reusedResult, settleCall, takeCheck } from '../calls';
import { noteGroups, resetEquippedTools, routeCall, specOf } from '../toolset';
import { checkAndRun, checksInExecute, runOnWorker } from './run-on-worker';
import { planBatches } from './plan-batches';
import type { Reading } from '../state';
import { runSubAgent } from './sub-agent';
import { runNexusOperation } from './nexus-operation';
import type { ToolCallRecord } from '../../common/tool-call-record';
import { apply } from '../effects';

/** What will happen to one call once approvals are in. */
type Plan =
  | { call: ToolCall; kind: 'result'; result: ToolCallResult }
  | { call: ToolCall; kind: 'run'; input: unknown }
  | { call: ToolCall; kind: 'external'; input: unknown };

function errorPlan(call: ToolCall, content: string, state: ToolCallResult['state'] = 'error'): Plan {
  return { call, kind: 'result', result: { content, state } };
}

/** Calls the workflow answers itself, from the recorded descriptor. */
function routeLocally(state: Reading, call: ToolCall): Plan | undefined {
  const route = routeCall(state.descriptor, state.activeGroups, call);
  if (route === 'not_found') return errorPlan(call, `Error: Tool not found: ${call.name}`);
  if (route === 'unauthorized') return errorPlan(call, `Error: Unauthorized tool call: '${call.name}' is not available`);
  if (route === 'meta') {
    const outcome = resetEquippedTools(state.descriptor, call.arguments);
    if ('active' in outcome) noteGroups(state, outcome.active, 'model');
    return { call, kind: 'result', result: outcome.result };
  }
  return undefined;
}

/** A repeated call answered from the earlier result (see reusableRun): nothing runs. */
function reused(state: Reading, call: ToolCall): Plan | undefined {
  const earlier = reusableRun(state, call);
  return earlier ? { call, kind: 'result', result: reusedResult(earlier) } : undefined;
}

/**
 * Checks run on the worker that runs this workflow task (a local activity). If that worker lacks
 * one of the tools (say its MCP server is down there), the check goes through the task queue
 * instead, where it fails retryably on such workers until one that has the tool takes it.
 */
async function prepare(state: Reading, calls: ToolCall[]): Promise<Map<string, PreparedCall>> {
  if (calls.length === 0) return new Map();
  const summary = `check ${calls.map((c) => c.name).join(', ')}`;
  const input = (onMissing: 'report' | 'fail') => ({
    agent: state.agent,
    calls,
    mode: state.descriptor.permissions.mode ?? 'default',
    sessionRules: state.sessionRules,
    runtime: state.runtime,
    onMissing,
  });
  let prepared = await localActivities.prepareToolCalls.executeWithOptions(
    { summary, startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } },
    [input('report')],
  );
  if (prepared.some((p) => p.outcome === 'unavailable')) {
    prepared = await activities.prepareToolCalls.executeWithOptions(
      // Retried until a worker that has the tools (and serves the agent) takes it; an hour bounds that.
      { summary, startToCloseTimeout: '1 minute', scheduleToCloseTimeout: '1 hour', retry: { maximumInterval: '30s' } },
      [input('fail')],
    );
  }
  return new Map(prepared.map((p) => [p.callId, p]));
}

function isExternal(state: Reading, toolName: string): boolean {
  return specOf(state.descriptor, toolName)?.external ?? false;
}

/** A nexusTool's operation, in runs described with the feature (a spec of an older worker has none). */
function nexusOperationOf(state: Reading, toolName: string) {
  const nexus = specOf(state.descriptor, toolName)?.nexus;
  return nexus && hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.nexusTools) ? nexus : undefined;
}

async function execute(state: Reading, plan: Plan): Promise<ToolCallResult> {
  if (plan.kind === 'result') return plan.result;
  if (plan.kind === 'external') return awaitExternalResult(state, plan.call.id);
  const subAgent = specOf(state.descriptor, plan.call.name)?.subAgent;
  if (subAgent) return runSubAgent(state, plan.call, plan.input, subAgent);
  const nexus = nexusOperationOf(state, plan.call.name);
  if (nexus) return runNexusOperation(state, plan.call, plan.input, nexus);
  return runOnWorker(state, plan.call, plan.input);
}

function approvedOrDenied(state: Reading, call: ToolCall, prepared: AskCall, decision: GateOutcome['decision']): Plan {
  if (decision === 'timed_out') {
    return errorPlan(call, `Permission denied: approval timed out after ${state.descriptor.approvalTimeout}`, 'denied');
  }
  if (!decision.approved) {
    return errorPlan(call, `Permission denied by user: ${decision.reason ?? 'no reason given'}`, 'denied');
  }
  const input = decision.input ?? prepared.input;
  if (isExternal(state, call.name)) {
    askForResult(state, call.id, input);
    return { call, kind: 'external', input };
  }
  return { call, kind: 'run', input };
}

/** A person approved the call with other arguments than the model's: the result says so, and who. */
function editOf(record: ToolCallRecord): Pick<ToolMessage, 'edit'> {
  const answer = record.answer;
  if (!answer?.approved || answer.input === undefined || record.phase.name !== 'settled' || record.phase.state === 'denied') return {};
  return { edit: { input: answer.input, ...(answer.answeredBy !== undefined ? { by: answer.answeredBy } : {}) } };
}

/** The acting half of an iteration: decide, wait for people where needed, run, answer in call order. */
export async function actOnToolCalls(state: Reading, calls: ToolCall[]): Promise<ToolMessage[]> {
  const batch = beginBatch(state, calls);
  const plans = new Map<string, Plan>();
  const forWorker: ToolCall[] = [];
  for (const call of calls) {
    const local = routeLocally(state, call) ?? reused(state, call);
    if (local) plans.set(call.id, local);
    else forWorker.push(call);
  }

  const checkRuns = checksInExecute(state, forWorker);
  beginChecks(state, forWorker, checkRuns);
  const ranByCheck = new Map<string, ToolCallResult>();
  let prepared: Map<string, PreparedCall>;
  if (checkRuns) {
    const checked = await checkAndRun(state, forWorker[0]!);
    prepared = new Map([[checked.prepared.callId, checked.prepared]]);
    if (checked.result) ranByCheck.set(checked.prepared.callId, checked.result);
  } else {
    prepared = await prepare(state, forWorker);
  }
  const asks: AskCall[] = [];
  for (const p of prepared.values()) {
    const call = forWorker.find((c) => c.id === p.callId)!;
    takeCheck(state, p);
    if (p.outcome === 'result') {
      plans.set(call.id, { call, kind: 'result', result: p.result });
    } else if (p.outcome === 'run') {
      const ran = ranByCheck.get(call.id);
      plans.set(call.id, ran ? { call, kind: 'result', result: ran } : { call, kind: 'run', input: p.input });
    } else if (p.outcome === 'unavailable') throw new Error(`tool ${call.name} unavailable after the worker check`);
    else if (p.outcome === 'external') {
      askForResult(state, call.id, p.input);
      plans.set(call.id, { call, kind: 'external', input: p.input });
    } else asks.push(p);
  }

  const lean = hasRuntimeFeature(state.descriptor, RUNTIME_FEATURES.leanSteps);
  const outcomes = asks.length > 0 || !lean ? await awaitApprovals(state, asks) : [];
  for (const outcome of outcomes) {
    const ask = asks.find((a) => a.callId === outcome.callId)!;
    plans.set(ask.callId, approvedOrDenied(state, calls.find((c) => c.id === ask.callId)!, ask, outcome.decision));
  }

  const ordered = calls.map((call) => plans.get(call.id)!);
  const results = new Map<string, ToolCallResult>();
  const isSafe = (plan: Plan) => plan.kind === 'result' || (plan.kind === 'run' && (specOf(state.descriptor, plan.call.name)?.concurrencySafe ?? false));
  for (const group of planBatches(ordered, isSafe, state.descriptor.parallel)) {
    const running = group.items.filter((p) => p.kind !== 'result').map((p) => p.call.name);
    if (running.length > 0) apply(state, { step: { text: `running ${running.join(', ')}` } });
    if (lean && running.length === 0) {
      // Results the workflow already has: settled at once, nothing to await.
      for (const plan of group.items as Extract<Plan, { kind: 'result' }>[]) {
        settleCall(state, plan.call.id, plan.result);
        results.set(plan.call.id, plan.result);
      }
      continue;
    }
    const batchResults = await Promise.all(
      group.items.map(async (plan) => {
        const result = await execute(state, plan);
        settleCall(state, plan.call.id, result);
        return result;
      }),
    );
    group.items.forEach((plan, i) => results.set(plan.call.id, batchResults[i]!));
  }
  finishBatch(state, batch);

  return calls.map((call, index): ToolMessage => {
    const result = results.get(call.id)!;
    return {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: result.content,
      state: result.state,
      ...(result.blocks ? { blocks: result.blocks } : {}),
      ...editOf(batch[index]!),
    };
  });
}
