import type { CliCommand } from '../command';
import { requirePositional, UsageError } from '../command';
import { printJson } from '../cli-output';

function list(value: unknown): string[] {
  return (Array.isArray(value) ? value : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
}

export const groupsCommand: CliCommand = {
  name: 'groups',
  usage: 'groups ID [--activate A[,B]] [--deactivate C] [--json]',
  summary: 'Show or change the active tool groups of a running run.',
  options: {
    activate: { type: 'string', multiple: true, valueName: 'A[,B]', description: 'groups to switch on (repeatable, comma-separated)' },
    deactivate: { type: 'string', multiple: true, valueName: 'C[,D]', description: 'groups to switch off (repeatable, comma-separated)' },
  },
  examples: ['groups support-ab12cd34', 'groups support-ab12cd34 --activate database --deactivate web'],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const activate = list(ctx.values.activate);
    const deactivate = list(ctx.values.deactivate);
    if (activate.some((g) => deactivate.includes(g))) throw new UsageError('a group cannot be both activated and deactivated');
    const client = await ctx.connect();
    const run = client.get(id);
    if (activate.length > 0 || deactivate.length > 0) await run.setGroups({ activate, deactivate });
    const state = await run.state();
    if (ctx.json) printJson(ctx.output, { workflowId: id, activeGroups: state.activeGroups });
    else ctx.output.out(`Active groups of ${id}: ${state.activeGroups.join(', ') || '(none)'}`);
    return 0;
  },
};
