import { z } from 'zod';
import type { Middleware } from '../../src/activities/middleware';
import type { ScriptedToolResult } from '../../src/testing/scripted-model-types';
import { defineAgent, DEFAULT_MAX_RESULT_CHARS } from '../../src/toolkit/define-agent';
import { defineTool } from '../../src/toolkit/define-tool';
import { activityEvents, activityResults } from '../helpers/activity-history';
import { startAgentTestEnv, type AgentTestEnv } from '../helpers/agent-test-env';
import { toolMessages } from '../helpers/tool-messages';
import { echoTool } from '../fixtures/test-tools';

const TEN_MB = 10 * 1024 * 1024;
const LIMIT = DEFAULT_MAX_RESULT_CHARS;
const bigJson = { rows: 'j'.repeat(TEN_MB) };
const marker = (total: number) => `\n[... output truncated: showing the first ${LIMIT} of ${total} characters ...]`;

const bigTextTool = defineTool({
  name: 'big_text',
  description: 'Returns 10 MB of text.',
  input: z.object({}),
  readOnly: true,
  execute: () => ({ blocks: [{ type: 'text', text: 't'.repeat(TEN_MB) }] }),
});
const bigJsonTool = defineTool({
  name: 'big_json',
  description: 'Returns 10 MB of JSON.',
  input: z.object({}),
  readOnly: true,
  execute: () => ({ blocks: [{ type: 'json', data: bigJson }] }),
});
/** Puts a huge result in place of whatever `echo` returned. */
const inflate: Middleware = {
  name: 'inflate',
  async onToolCall(call, next) {
    const result = await next(call);
    if (call.tool !== 'echo') return result;
    return { ...result, content: 'm'.repeat(TEN_MB), blocks: [{ type: 'image', url: `data:image/png;base64,${'A'.repeat(TEN_MB)}` }] };
  },
};

describe('tool results of any size fit the run', () => {
  let env: AgentTestEnv;
  const seen: ScriptedToolResult[][] = [];
  const agent = defineAgent({ name: 'bulky', instructions: 'Fetch a lot.', tools: [bigTextTool, bigJsonTool, echoTool] });

  beforeAll(async () => {
    env = await startAgentTestEnv({
      agents: [agent],
      middleware: [inflate],
      script: (_req, info) => {
        if (info.turnIndex === 0) {
          return { toolCalls: [{ name: 'big_text' }, { name: 'big_json' }, { name: 'echo', arguments: { text: 'hi' } }] };
        }
        seen.push(info.toolResults);
        return 'read it all';
      },
    });
  });
  afterAll(async () => env?.stop());

  test('10 MB text and json blocks, and a 10 MB result from middleware, reach the model cut at maxResultChars', async () => {
    const run = await env.client.start('bulky', { prompt: 'fetch' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('read it all');

    expect(seen).toHaveLength(1);
    const [text, json, echo] = seen[0];
    expect(text.content).toBe('t'.repeat(LIMIT) + marker(TEN_MB));
    expect(json.content).toBe(JSON.stringify(bigJson).slice(0, LIMIT) + marker(JSON.stringify(bigJson).length));
    expect(echo.content).toBe('m'.repeat(LIMIT) + marker(TEN_MB));

    const [textMessage, jsonMessage, echoMessage] = toolMessages(result.messages);
    expect(textMessage.state).toBe('success');
    expect(textMessage.blocks).toEqual([{ type: 'text', text: 't'.repeat(LIMIT) + marker(TEN_MB) }]);
    expect(jsonMessage.blocks).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[json block omitted: 10,485,7\d\d characters, over the 30,000-character limit\]$/) },
    ]);
    expect(echoMessage.blocks).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[image block omitted: 10,485,8\d\d characters, over the 30,000-character limit\]$/) },
    ]);

    // No attempt failed, none was retried, and each result stayed far below Temporal's payload limit.
    const history = await run.handle.fetchHistory();
    const events = activityEvents(history, 'executeTool');
    expect(events.filter((e) => e.kind === 'failed' || e.kind === 'timed_out')).toEqual([]);
    expect(events.filter((e) => e.kind === 'started').map((e) => [e.attempt, e.lastFailure])).toEqual([
      [1, undefined],
      [1, undefined],
      [1, undefined],
    ]);
    const outputs = activityResults<unknown>(history, 'executeTool');
    expect(outputs).toHaveLength(3);
    for (const output of outputs) expect(JSON.stringify(output).length).toBeLessThan(3 * LIMIT);
  });
});
