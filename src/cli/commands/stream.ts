import { InvalidCursorError } from '../../client/stream/stream-items';
import { printJson } from '../cli-output';
import { requirePositional, stringOption, UsageError, type CliCommand } from '../command';

export const streamCommand: CliCommand = {
  name: 'stream',
  usage: 'stream ID [--from CURSOR]',
  summary:
    "Print a run's stream, one JSON item per line, until the run ends: its events, its model calls' text_delta and tool_call_delta " +
    "pieces, model_call_restarted, and its sub-agents' items (depth), each with the cursor that resumes after it (--from).",
  options: {
    from: { type: 'string', valueName: 'CURSOR', description: 'go on after the item with this cursor (from an earlier stream of this run)', defaultText: 'the start' },
  },
  examples: ['stream support-ab12cd34', "stream support-ab12cd34 --from \"$(durable-agent stream support-ab12cd34 | tail -1 | jq -r .cursor)\""],
  async run(ctx) {
    const id = requirePositional(ctx, 0, 'run id');
    const from = stringOption(ctx, 'from');
    const client = await ctx.connect();
    let items;
    try {
      items = client.get(id).stream(from ? { from } : {});
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new UsageError(`--from: ${error.message}`);
      throw error;
    }
    for await (const item of items) printJson(ctx.output, item);
    return 0;
  },
};
