import type { PendingCall } from '../../../common/run';
import type { CliCommand } from '../command';
import { printJson } from '../cli-output';

interface PendingRun {
  workflowId: string;
  agent: string;
  status: string;
  pending: PendingCall[];
}

function answerCommand(workflowId: string, call: PendingCall): string {
  return call.kind === 'approval'
    ? `npm run agent -- approve ${workflowId} ${call.callId}   |   npm run agent -- deny ${workflowId} ${call.callId} --reason "..."`
    : `npm run agent -- submit ${workflowId} ${call.callId} --output "..."`;
}

export const pendingCommand: CliCommand = {
  name: 'pending',
  usage: 'pending [ID] [--json]',
  summary: 'Runs waiting for a person (approval or external result), with call ids, tools and arguments.',
  options: {},
  async run(ctx) {
    const client = await ctx.connect();
    const ids = ctx.positionals[0]
      ? [ctx.positionals[0]]
      : (await client.list({ query: `AgentStatus = 'awaiting_approval' OR AgentStatus = 'awaiting_external'`, limit: 100 }))
          .filter((run) => run.temporalStatus === 'RUNNING')
          .map((run) => run.workflowId);
    const runs: PendingRun[] = [];
    for (const id of ids) {
      try {
        const state = await client.get(id).state();
        if (state.pending.length > 0 || ctx.positionals[0]) {
          runs.push({ workflowId: id, agent: state.agent, status: state.status, pending: state.pending });
        }
      } catch (error) {
        // One run that cannot answer (its workers are down) must not hide the others.
        if (ctx.positionals[0]) throw error;
        ctx.output.err(`${id}: could not read its state (${(error as Error).message})`);
      }
    }
    if (ctx.json) {
      printJson(ctx.output, runs);
      return 0;
    }
    if (runs.every((run) => run.pending.length === 0)) ctx.output.out('Nothing is waiting.');
    for (const run of runs) {
      for (const call of run.pending) {
        ctx.output.out(`${run.workflowId}  ${call.kind}  ${call.callId}  ${call.tool} ${JSON.stringify(call.input)}`);
        if (call.decision) ctx.output.out(`    why: ${call.decision.reason}${call.decision.suggestedRule ? ` (remember allows '${call.decision.suggestedRule}')` : ''}`);
        ctx.output.out(`    ${answerCommand(run.workflowId, call)}`);
      }
    }
    return 0;
  },
};
