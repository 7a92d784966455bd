import type { CliCommand } from '../command';
import { requirePositional } from '../command';
import { printJson } from '../cli-output';
import { answeredByOf, answeredByOption } from '../answered-by';

export const addInputCommand: CliCommand = {
  name: 'add-input',
  usage: 'add-input ID TEXT [--as NAME] [--json]',
  summary: 'Add a message to a run while it works or waits; its next model call sees it.',
  details:
    "The run's next model call sees TEXT as a user message, after the messages before it, once; an agent with\n" +
    "steering: 'interrupt' cancels the model call in flight and makes it again with it. Refused once the run has\n" +
    'ended, or while a conversation is idle (send it a message with chat instead).',
  options: {
    as: { ...answeredByOption, description: "who adds it (a person's name or address), recorded in its event" },
  },
  examples: ["add-input support-ab12cd34 'and also check the invoice'", "add-input support-ab12cd34 'only the March order' --as alice@example.com"],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const text = requirePositional(ctx, 1, 'text');
    const by = answeredByOf(ctx).answeredBy;
    const client = await ctx.connect();
    const added = await client.get(id).addInput(text, by !== undefined ? { addedBy: by } : {});
    if (ctx.json) printJson(ctx.output, added);
    else ctx.output.out(added.delivery === 'interrupting' ? `Input ${added.position} added: the model call in flight is made again with it.` : `Input ${added.position} added: the next model call sees it.`);
    return 0;
  },
};
