import type { PendingCall } from '../../common/run';

/**
 * A waiting call in the Web UI's current details (markdown): what it is, why, and how to answer
 * it, each command on a line of its own in a code block and every JSON in code, so nothing turns
 * into typographic quotes and each line pastes as it is. `holder` is the run that holds the call.
 */
export function waitingCallDetails(call: Pick<PendingCall, 'callId' | 'tool' | 'kind' | 'input' | 'decision' | 'agent'>, holder: string, inSubAgent: boolean): string {
  const where = inSubAgent ? ` in sub-agent **${call.agent ?? '?'}** (\`${holder}\`)` : '';
  const head = `**${call.tool}**${where} \`${JSON.stringify(call.input)}\``;
  if (call.kind === 'external') {
    return [
      `${head}: waits for its external result`,
      '```sh',
      `durable-agent submit ${holder} ${call.callId} --output '...'`,
      '```',
      `Web UI: Send Signal \`submitToolResult\` with \`${JSON.stringify({ callId: call.callId, output: '...' })}\``,
    ].join('\n');
  }
  return [
    `${head}${call.decision?.reason ? `: ${call.decision.reason}` : ''}`,
    '```sh',
    `durable-agent approve ${holder} ${call.callId}`,
    `durable-agent deny ${holder} ${call.callId} --reason "..."`,
    '```',
    `Web UI: Send Signal \`approve\` with \`${JSON.stringify({ callId: call.callId })}\`, or \`deny\` with \`${JSON.stringify({ callId: call.callId, reason: '...' })}\`${inSubAgent ? ' (here or on the sub-agent run)' : ''}`,
  ].join('\n');
}
