import type { AgentRun } from '../client/agent-run';
import type { ClientConfig } from '../client/client-config';
import type { WaitingCall } from '../common/contracts/published-waits';
import type { AgentRunState } from '../common/run';
import { cliInvocation } from '../text/invocation';
import { stateWithin } from './state-within';
import { boundFlags } from './bound-answer';
import { approvalProgress } from '../text/approval-progress';

const ANSWER_TIMEOUT_MS = 5_000;

/** The run's state when it is open and waits for a person; undefined otherwise (or when no worker answers in time). */
export async function waitingState(run: AgentRun): Promise<AgentRunState | undefined> {
  if ((await run.execution()).status !== 'RUNNING') return undefined;
  const state = await stateWithin(run, ANSWER_TIMEOUT_MS);
  return state && state.pending.length > 0 ? state : undefined;
}

/** The Web UI's list of runs that wait for a person. */
export function waitingRunsLink(config: Pick<ClientConfig, 'webUiUrl' | 'namespace'>): string {
  const query = `AgentStatus="awaiting_approval" OR AgentStatus="awaiting_external"`;
  return `${config.webUiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows?query=${encodeURIComponent(query)}`;
}

function quoteForShell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Each waiting call: what it is, why it asks, and every way to answer it (CLI, Web UI), sent to the run that holds it. */
export function describeWaitingCalls(calls: WaitingCall[]): string[] {
  const bin = cliInvocation();
  const lines: string[] = [];
  for (const call of calls) {
    const holder = call.workflowId;
    const where = call.top ? `  (sub-agent ${call.agent} of ${call.top.agent ?? 'run'} ${call.top.workflowId})` : '';
    lines.push(`${holder}  ${call.kind}  ${call.callId}  ${call.tool} ${call.preview}${where}`);
    if (call.kind === 'approval') {
      if (call.reason) lines.push(`    why: ${call.reason}${call.suggestedRule ? ` (--remember allows '${call.suggestedRule}')` : ''}`);
      if (call.repeats) lines.push(`    repeats: call ${call.repeats.callId}, which already ran with the same arguments: ${call.repeats.preview}`);
      const answering = approvalProgress(call);
      if (answering) lines.push(`    ${answering}`);
      lines.push(`    approve: ${bin} approve ${holder} ${call.callId}`);
      lines.push(`    deny:    ${bin} deny ${holder} ${call.callId} --reason "..."`);
      lines.push(`    Web UI:  Send Signal 'approve' with ${JSON.stringify({ callId: call.callId })} (or 'deny' with ${JSON.stringify({ callId: call.callId, reason: '...' })})`);
      const bound = boundFlags(call);
      if (bound) lines.push(`    bound:  ${bound} (add to approve or deny: refused if the arguments or the rules changed since)`);
    } else {
      lines.push(`    submit:  ${bin} submit ${holder} ${call.callId} --output ${quoteForShell('...')}`);
      lines.push(`    Web UI:  Send Signal 'submitToolResult' with ${JSON.stringify({ callId: call.callId, output: '...' })}`);
    }
  }
  return lines;
}
