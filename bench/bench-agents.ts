import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { agentTool } from '../src/toolkit/agent-tool';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';

/** Model names the scripted model server answers with the benchmark's scripts (bench/model-scripts.ts). */
export const BenchModels = {
  /** One no-op tool call, then the answer `done`. */
  oneCall: 'scripted-model',
  /** The no-op tool until the iteration named by the prompt (a number), then `done`. */
  loop: 'loop-model',
  /** Three slow read-only calls in one reply, then `done`. */
  parallel: 'parallel-model',
  /** One call of the `answerer` sub-agent, then `done`. */
  delegate: 'delegate-model',
  /** `done` at once (the sub-agent's one model call). */
  answer: 'answer-model',
  /** Like `loop`, with the page tool: a result of PAGE_CHARS each iteration. */
  reader: 'reader-model',
  /** One `refund` of 50 on order P1, then `done` (the policy part's agents). */
  policy: 'refund-model',
} as const;

export const SLOW_TOOL_MS = 1000;
/** A tool result of a realistic size: a page of text, about what a search or a file read returns. */
export const PAGE_CHARS = 2000;
const PAGE = 'words of a page, '.repeat(Math.ceil(PAGE_CHARS / 17)).slice(0, PAGE_CHARS);

/** The no-op tool's calls and its own time on them so far (in the worker), for figures that take the tools' time out. */
export const noopToolTime = { calls: 0, ms: 0 };

export const noopTool = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  input: z.object({}),
  execute: () => {
    const began = performance.now();
    noopToolTime.calls += 1;
    const result = 'ok';
    noopToolTime.ms += performance.now() - began;
    return result;
  },
});

export const slowTool = defineTool({
  name: 'slow',
  description: 'Reads something that takes a second.',
  input: z.object({ n: z.number() }),
  readOnly: true,
  execute: async ({ n }, ctx) => {
    await sleep(SLOW_TOOL_MS, undefined, { signal: ctx.signal });
    return `read ${n}`;
  },
});

export const benchAgent = defineAgent({ name: 'bench', instructions: 'Call noop once, then answer.', tools: [noopTool], model: BenchModels.oneCall });

export const loopAgent = defineAgent({ name: 'loop', instructions: 'Call noop until told to stop.', tools: [noopTool], model: BenchModels.loop });

/** The loop agent with its model's replies streamed: the streamed loop (bench/streamed-loop.ts) reads its runs through `run.stream()`. */
export const streamedLoopAgent = defineAgent({
  name: 'streamed-loop',
  instructions: 'Call noop until told to stop.',
  tools: [noopTool],
  model: { name: BenchModels.loop, stream: true },
});

export const pageTool = defineTool({ name: 'read_page', description: 'Reads the next page.', input: z.object({}), readOnly: true, execute: () => PAGE });

export const readerAgent = defineAgent({ name: 'reader', instructions: 'Read pages until told to stop.', tools: [pageTool], model: BenchModels.reader });

export const parallelAgent = defineAgent({ name: 'parallel', instructions: 'Read three things at once.', tools: [slowTool], model: BenchModels.parallel });

/** Does what `bench` does, but every noop call waits for a person's approval. */
export const parkedAgent = defineAgent({
  name: 'parked',
  instructions: 'Call noop once, then answer.',
  tools: [noopTool],
  model: BenchModels.oneCall,
  permissions: { ask: ['noop'] },
});

/** Answers at once: a sub-agent call's whole run is one model call. */
export const answerAgent = defineAgent({ name: 'answerer', instructions: 'Answer at once.', model: BenchModels.answer });

/** Does what `bench` does, with a sub-agent call (a child workflow) where `bench` calls its no-op tool. */
export const delegateAgent = defineAgent({
  name: 'delegate',
  instructions: 'Ask the answerer once, then answer.',
  tools: [agentTool(answerAgent)],
  model: BenchModels.delegate,
});
