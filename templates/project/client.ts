// Starts a run of the support agent and follows it to its answer: `npm run ask -- "Where is order A-1001?"`.
import { AgentClient } from 'durable-agent';
import { taskQueue } from './agents';

async function main(): Promise<void> {
  const prompt = process.argv.slice(2).join(' ') || 'Where is my order A-1001?';
  const client = await AgentClient.connect({ taskQueue: process.env.TEMPORAL_TASK_QUEUE || taskQueue });
  try {
    const run = await client.start('support', { prompt, userId: 'customer-1' });
    console.log(`run ${run.workflowId}: ${run.webUiUrl}`);
    for await (const update of run.updates({ partialText: false })) {
      if (update.type === 'permission_requested') {
        console.log(`waiting for approval of ${update.tool} ${JSON.stringify(update.input)}: npx durable-agent approve ${run.workflowId} ${update.callId}`);
      }
    }
    console.log((await run.result()).output);
  } finally {
    await client.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
