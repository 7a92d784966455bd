import type { AgentRun } from '../client/agent-run';
import type { AgentRunState, PendingCall } from '../common/run';
import type { ClientConfig } from '../client/client-config';
import { cliInvocation } from '../text/invocation';
import { stateWithin } from './state-within';

const ANSWER_TIMEOUT_MS = 5_000;

/** The run's state when it is open and waits for a person; undefined otherwise (or when no worker answers in time). */
export async function waitingState(run: AgentRun): Promise<AgentRunState | undefined> {
  const description = await run.handle.describe();
  if (description.status.name !== 'RUNNING') return undefined;
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

/** Each waiting call: what it is, why it asks, and every way to answer it (CLI, Temporal CLI, Web UI). */
export function describePending(workflowId: string, calls: PendingCall[], config: Pick<ClientConfig, 'webUiUrl' | 'namespace'>): string[] {
  const bin = cliInvocation();
  const lines: string[] = [];
  for (const call of calls) {
    // A call that waits in a sub-agent run is answered there (or through this run's id, by AgentRun and this CLI).
    const holder = call.workflowId ?? workflowId;
    const where = call.workflowId && call.workflowId !== workflowId ? `  (in sub-agent ${call.agent ?? '?'}: ${call.workflowId})` : '';
    lines.push(`${workflowId}  ${call.kind}  ${call.callId}  ${call.tool} ${JSON.stringify(call.input)}${where}`);
    if (call.kind === 'approval') {
      if (call.decision) {
        lines.push(`    why: ${call.decision.reason}${call.decision.suggestedRule ? ` (--remember allows '${call.decision.suggestedRule}')` : ''}`);
      }
      lines.push(`    approve: ${bin} approve ${holder} ${call.callId}`);
      lines.push(`    deny:    ${bin} deny ${holder} ${call.callId} --reason "..."`);
      lines.push(`    Web UI:  Send Signal 'approve' with ${JSON.stringify({ callId: call.callId })} (or 'deny' with ${JSON.stringify({ callId: call.callId, reason: '...' })})`);
    } else {
      lines.push(`    submit:  ${bin} submit ${holder} ${call.callId} --output ${quoteForShell('...')}`);
      lines.push(`    Web UI:  Send Signal 'submitToolResult' with ${JSON.stringify({ callId: call.callId, output: '...' })}`);
    }
  }
  lines.push(`Runs waiting in the Web UI: ${waitingRunsLink(config)}`);
  return lines;
}
