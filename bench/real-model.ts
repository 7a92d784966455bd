import { loadavg } from 'node:os';
import { ecommerceAgent } from '../src/demo/ecommerce-agent';
import { createChatModel } from '../src/model/create-chat-model';
import { AgentRegistry } from '../src/toolkit/agent-registry';
import { loadAverage } from './load-average';
import { median } from './stats';
import type { SummaryRow } from './summary';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const localModel = require('../scripts/local-model.cjs') as typeof import('../scripts/local-model.cjs');

/** The prompts each model answers, each `TRIES` times: a question whose answer needs one tool call. */
const PROMPTS = ['Where is my order ORD-2024-001? Look it up.', 'Track the shipment of order ORD-2024-002.', 'Refund order ORD-2024-002, the phone case arrived cracked.'];
const TRIES = 4;

interface ModelFigures {
  model: string;
  calls: number;
  /** Replies with at least one tool call (native or written as text). */
  withCall: number;
  /** Calls of an offered tool whose arguments its schema takes. */
  valid: number;
  secondsPerCall: number;
  tokensPerSecond: number;
}

async function measure(size: string): Promise<ModelFigures> {
  const served = await localModel.startLocalModel({ model: size });
  try {
    const registry = new AgentRegistry([ecommerceAgent], { defaultModel: served.model });
    const agent = registry.get('ecommerce-cs')!;
    const tools = agent.descriptor.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
    const model = createChatModel({ baseURL: served.baseURL, apiKey: 'local', defaultModel: served.model, textToolCallModels: ['*'] });
    const seconds: number[] = [];
    let tokens = 0;
    let withCall = 0;
    let valid = 0;
    let calls = 0;
    for (let round = 0; round < TRIES; round++) {
      for (const prompt of PROMPTS) {
        const began = performance.now();
        const reply = await model.complete({
          messages: [
            { role: 'system', content: agent.descriptor.instructions },
            { role: 'user', content: prompt },
          ],
          tools,
          settings: { temperature: round === 0 ? 0 : 0.7, maxTokens: 256 },
        });
        seconds.push((performance.now() - began) / 1000);
        tokens += reply.usage.completionTokens;
        calls += 1;
        const toolCalls = reply.message.toolCalls ?? [];
        if (toolCalls.length > 0) withCall += 1;
        if (toolCalls.some((call) => isValid(agent, call.name, call.arguments))) valid += 1;
      }
    }
    const total = seconds.reduce((sum, value) => sum + value, 0);
    return { model: served.model, calls, withCall, valid, secondsPerCall: median(seconds), tokensPerSecond: tokens / total };
  } finally {
    await served.stop();
  }
}

function isValid(agent: NonNullable<ReturnType<AgentRegistry['get']>>, name: string, args: string): boolean {
  const tool = agent.toolkit.get(name);
  if (!tool) return false;
  try {
    return tool.validate(JSON.parse(args) as Record<string, unknown>).ok;
  } catch {
    return false;
  }
}

/**
 * `model`: the small open models of the real-model tier (scripts/local-model.cjs), asked the demo
 * agent's questions directly: how often a reply makes a tool call (native or written as text), how
 * often that call is valid (an offered tool, arguments its schema takes), time per call, tokens per
 * second. BENCH_MODELS picks the sizes (0.5b,1.5b).
 */
export async function measureRealModels(sizes: string[]): Promise<SummaryRow[]> {
  const rows: SummaryRow[] = [];
  for (const size of sizes) {
    let figures: ModelFigures;
    try {
      figures = await measure(size);
    } catch (error) {
      console.log(`\nreal model ${size}: skipped (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    const load = loadavg()[0];
    console.log(
      `\nreal model ${figures.model} (llama-server, 2 threads, --no-repack): ${figures.calls} replies to ${PROMPTS.length} questions; ` +
        `${figures.withCall} with a tool call, ${figures.valid} of them valid; median ${figures.secondsPerCall.toFixed(1)} s a call; ${figures.tokensPerSecond.toFixed(1)} tokens/s; ${loadAverage()}`,
    );
    rows.push(
      { part: 'model', figure: `${figures.model}: replies with a valid tool call`, value: `${figures.valid}/${figures.calls} (${figures.withCall} with a call)`, target: 'measured', load },
      { part: 'model', figure: `${figures.model}: time per call (median), tokens/s`, value: `${figures.secondsPerCall.toFixed(1)} s, ${figures.tokensPerSecond.toFixed(1)} tok/s`, target: 'measured', load },
    );
  }
  return rows;
}
