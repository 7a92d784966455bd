import OpenAI from 'openai';
import { keepAliveFetch } from '../src/model/keep-alive-fetch';
import { toolInputSchema } from '../src/toolkit/json-schema';
import type { FloorActivities, HandWrittenLoopInput } from './floor-workflow';
import { benchAgent, BenchModels, loopAgent, noopTool } from './bench-agents';

/**
 * The hand-written loop's activities (bench/floor-workflow.ts): the model through the `openai`
 * client on the worker's own transport (the cheapest way the client offers; a hand-written worker
 * on Node's global fetch spends more), and the tool as the agent's `noop` runs it.
 */
export function handWrittenLoopActivities(modelUrl: string): Pick<FloorActivities, 'loopModel' | 'loopTool'> {
  const client = new OpenAI({ baseURL: modelUrl, apiKey: 'bench', maxRetries: 0, fetch: keepAliveFetch() });
  return {
    async loopModel({ model, messages, tools }) {
      const completion = await client.chat.completions.create({ model, messages, tools });
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('the model sent no choice');
      return { role: 'assistant', content: message.content, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls as never } : {}) };
    },
    async loopTool(name) {
      if (name !== noopTool.name) throw new Error(`the hand-written loop has no tool '${name}'`);
      return String(await noopTool.execute!({}, undefined as never));
    },
  };
}

const noopSchema = { type: 'function' as const, function: { name: noopTool.name, description: noopTool.description, parameters: toolInputSchema(noopTool.input) } };

/** The hand-written loop doing what the bench agent does: one no-op call, then the answer. */
export function oneIterationLoop(): HandWrittenLoopInput {
  return { model: BenchModels.oneCall, instructions: benchAgent.instructions, prompt: 'go', tools: [noopSchema] };
}

/** The hand-written loop doing what the loop agent does with a prompt of `iterations`: that many model calls, a no-op call after each but the last. */
export function iterationsLoop(iterations: number): HandWrittenLoopInput {
  return { model: BenchModels.loop, instructions: loopAgent.instructions, prompt: String(iterations), tools: [noopSchema] };
}
