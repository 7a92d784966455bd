import { cliInvocation } from './invocation';
import { styleFor, type Style } from './style';
import type { AgentEvent } from '../common/events';
import { BUDGET_TOOL, spendText } from '../common/budget';
import { approversText } from '../common/approvals';
import type { TokenUsage } from '../common/messages';
import type { SubAgentUpdate } from '../client/run-updates';

function clock(at: string): string {
  return at.slice(11, 19);
}

function args(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A cost in the price table's currency: at most 6 decimals, no trailing zeros. */
export function formatCost(cost: number): string {
  const fixed = cost.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '0' && cost > 0 ? '<0.000001' : fixed;
}

function totals(usage: TokenUsage | undefined, cost: number | undefined): string {
  const parts = [...(usage ? [`${usage.totalTokens} tokens`] : []), ...(cost !== undefined ? [`cost ${formatCost(cost)}`] : [])];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** One human-readable line per event; `commandFor` names the CLI command that answers a waiting call. */
export function formatEvent(event: AgentEvent, workflowId: string, style: Style = styleFor(false)): string {
  const line = plainLine(event, workflowId);
  switch (event.type) {
    case 'permission_requested':
    case 'external_requested':
    case 'answer_refused':
    case 'input_rejected':
    case 'call_answer_refused':
    case 'approval_reminded':
    case 'approval_escalated':
    case 'subagent_waiting':
    case 'budget_reached':
      return style.yellow(line);
    case 'run_finished':
      return event.status === 'completed' ? style.green(line) : event.status === 'max_iterations' || event.status === 'budget_exhausted' ? style.yellow(line) : style.red(line);
    case 'iteration_started':
      return style.dim(line);
    default:
      return line;
  }
}

/** A sub-agent's event (an update of `updates({ subAgents: true })` or a stream item of depth > 0), indented by its depth below the watched run. */
export function formatSubAgentEvent(update: Pick<SubAgentUpdate, 'workflowId' | 'depth' | 'event'>, style: Style = styleFor(false)): string {
  const pad = '    '.repeat(update.depth);
  return formatEvent(update.event, update.workflowId, style)
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

function plainLine(event: AgentEvent, workflowId: string): string {
  const t = clock(event.at);
  const bin = cliInvocation();
  switch (event.type) {
    case 'iteration_started':
      return `${t} ── iteration ${event.iteration}`;
    case 'model_call_started':
      return `${t} ▶ model ${event.model} …`;
    case 'model_call_finished': {
      // An empty reply is no answer: the run reminds the model and asks again.
      const what = event.toolCalls > 0 ? `${event.toolCalls} tool call(s)` : event.text === '' ? 'an empty reply (no text, no tool call)' : 'answer';
      const text = event.text ? ` "${event.text}"` : '';
      return `${t} ◀ model ${event.model}: ${what}${text}${totals(event.usage, event.cost)}`;
    }
    case 'tool_call_started':
      return `${t}   ▶ tool ${event.tool} ${args(event.input)}`;
    case 'tool_call_finished':
      return `${t}   ◀ tool ${event.tool} ${event.state} in ${event.durationMs} ms: ${event.preview}`;
    case 'permission_requested':
      if (event.tool === BUDGET_TOOL) {
        return [
          `${t}   ? ${event.reason}`,
          `        allow: ${bin} approve ${workflowId} ${event.callId}   (another amount: --input '{"cost": 1}' or '{"tokens": 10000}')`,
          `        stop:  ${bin} deny ${workflowId} ${event.callId} --reason "..."`,
        ].join('\n');
      }
      return [
        `${t}   ? ${event.tool} ${args(event.input)} needs approval: ${event.reason}`,
        `        approve: ${bin} approve ${workflowId} ${event.callId}`,
        `        deny:    ${bin} deny ${workflowId} ${event.callId} --reason "..."`,
      ].join('\n');
    case 'permission_decided':
      // An approval policy's decision: "allowed by refunds-v3: amount ≤ 100".
      if (event.policy && event.by === 'rules') {
        return `${t}   ${event.behavior === 'allow' ? '✔' : '✘'} ${event.tool}: ${event.behavior === 'allow' ? 'allowed' : 'denied'} by ${event.policy.name}-v${event.policy.version}: ${event.policy.reason}`;
      }
      return `${t}   ${event.behavior === 'allow' ? '✔' : '✘'} ${event.tool}: ${event.behavior} by ${event.by} (${event.reason})`;
    case 'external_requested':
      return [
        `${t}   ⧗ ${event.tool} ${args(event.input)} runs outside the worker${event.reason ? `: ${event.reason}` : ''}`,
        `        submit: ${bin} submit ${workflowId} ${event.callId} --output "..."`,
      ].join('\n');
    case 'external_submitted':
      return `${t}   ◀ external ${event.tool}${event.isError ? ' (error)' : ''}: ${event.preview}`;
    case 'input_added':
      return `${t} » input ${event.position}${event.addedBy ? ` from ${event.addedBy}` : ''}: ${event.text}`;
    case 'model_call_interrupted':
      return `${t} ↺ model call interrupted by ${event.inputs} added input(s); asking again`;
    case 'answer_refused':
      return `${t}   ✗ answer refused (${event.retry}): ${event.problems.join('; ')}`;
    case 'approval_reminded':
      return `${t}   ⏰ ${event.tool} still waits for approval: reminder ${event.reminder}${event.approvers ? ` to ${approversText(event.approvers)}` : ''}`;
    case 'approval_escalated':
      return `${t}   ⇧ ${event.tool} escalated: ${approversText(event.approvers)} may answer now`;
    case 'approval_delegated':
      return `${t}   ⇢ ${event.tool} handed to ${approversText(event.approvers)}${event.delegatedBy ? ` by ${event.delegatedBy}` : ''}${event.reason ? ` (${event.reason})` : ''}`;
    case 'call_answer_refused':
      return `${t}   ⚠ answer ${event.handler} for ${event.callId}${event.answeredBy ? ` from ${event.answeredBy}` : ''} refused: ${event.reason}`;
    case 'input_rejected':
      return `${t}   ⚠ rejected ${event.handler}${event.callId ? ` for ${event.callId}` : ''}: ${event.reason}`;
    case 'budget_reached':
      return `${t} $ budget of ${spendText(event.limit)} reached: ${spendText(event.spent)} spent, the next model call ≈ ${spendText(event.next)}${event.callId ? '' : '; the run stops'}`;
    case 'budget_raised':
      return `${t} $ allowed ${spendText(event.allowed)} more${event.answeredBy ? ` (${event.answeredBy})` : ''}: the budget is ${spendText(event.limit)}`;
    case 'groups_changed':
      return `${t}   ⚙ tool groups now ${event.active.join(', ') || 'none'} (by ${event.by})`;
    case 'session_rule_added':
      return `${t}   ✔ rule ${event.rule} allowed for the rest of the run`;
    case 'run_forked':
      return `${t} ⑂ fork of ${event.of} after its event ${event.after}${event.model ? `, on model ${event.model}` : ''}`;
    case 'run_finished':
      return `${t} ■ ${event.status}: ${event.output}${totals(event.usage, event.cost)}`;
    case 'subagent_started':
      return `${t}   ▶ sub-agent ${event.agent} (${event.workflowId}): ${event.task}`;
    case 'subagent_finished':
      return `${t}   ◀ sub-agent ${event.agent} ${event.status}: ${event.preview}${totals(event.usage, event.cost)}`;
    case 'subagent_waiting':
      return event.calls.length === 0
        ? `${t}   ⧗ sub-agent ${event.agent}: nothing waits any more`
        : [
            `${t}   ⧗ sub-agent ${event.agent} waits for ${event.calls.length} call(s)`,
            ...event.calls.map((call) =>
              call.kind === 'approval'
                ? `        ${call.tool}: ${bin} approve ${call.workflowId} ${call.callId}   (or deny)`
                : `        ${call.tool}: ${bin} submit ${call.workflowId} ${call.callId} --output "..."`,
            ),
          ].join('\n');
    case 'turn_started':
      return `${t} » message ${event.turn}: ${event.text}`;
    case 'turn_finished':
      return `${t} « answer ${event.turn} (${event.status}, ${event.iterations} iteration(s)): ${event.output}${totals(event.usage, event.cost)}`;
    case 'conversation_compacted':
      return `${t} ⇢ compacted (${event.reason === 'budget' ? 'over the context budget' : 'the model said the context was too long'}): ${event.summarized} older message(s) summarised, ~${event.estimatedTokens} tokens before${totals(event.usage, event.cost)}`;
    case 'conversation_ended':
      return `${t} ■ conversation ${event.reason} after ${event.turns} message(s)`;
  }
}
