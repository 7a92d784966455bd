import { z } from 'zod';
import { defineAgent } from '../src/toolkit/define-agent';
import { defineTool } from '../src/toolkit/define-tool';

/** A tool whose result is 2,000 characters, the size the history-per-iteration figure is stated for. */
const pageTool = defineTool({
  name: 'read_page',
  description: 'Read one page of the manual.',
  input: z.object({ page: z.number().int() }),
  readOnly: true,
  execute: ({ page }) => `page ${page}: ${'lorem ipsum '.repeat(200)}`.slice(0, 2_000),
});

/** Streams its replies; its model name picks the script (see stream-bench.ts). */
export const streamingReader = defineAgent({ name: 'stream-reader', instructions: 'Read, then answer.', model: { name: 'stream-bench', stream: true, heartbeatTimeout: '2s' }, tools: [pageTool], maxIters: 50 });
/** The same agent without streaming: its history is the floor the streaming one is held to. */
export const plainReader = defineAgent({ name: 'plain-reader', instructions: 'Read, then answer.', model: { name: 'stream-bench', heartbeatTimeout: '2s' }, tools: [pageTool], maxIters: 50 });
/** First text 1 s after the request, as a real model's time to first token. */
export const slowStartReader = defineAgent({ name: 'slow-start-reader', instructions: 'Answer.', model: { name: 'stream-slow-start', stream: true }, tools: [] });
export const streamBenchAgents = [streamingReader, plainReader, slowStartReader];
