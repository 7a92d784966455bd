import type { ModelScript, ScriptedModelServerOptions } from '../src/testing/scripted-model-types';
import { BenchModels } from './bench-agents';

/** The tool until the iteration named by the prompt (a number), then `done`. */
function loopScript(tool: string): ModelScript {
  return (_req, info) => {
    const iterations = Number.parseInt(info.lastUserText, 10);
    if (!Number.isInteger(iterations)) throw new Error(`a loop agent's prompt must be a number, got '${info.lastUserText}'`);
    return info.turnIndex < iterations - 1 ? { toolCalls: [{ name: tool, arguments: {} }] } : 'done';
  };
}

/** The scripted model's answers for every benchmark agent, by the model name the agent uses. */
export function benchModelScripts(): Pick<ScriptedModelServerOptions, 'script' | 'byModel'> {
  return {
    // A tool call for each new message (a run's prompt, or a conversation's next message), then the answer.
    script: (_req, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'noop', arguments: {} }] } : 'done'),
    byModel: {
      [BenchModels.loop]: loopScript('noop'),
      [BenchModels.reader]: loopScript('read_page'),
      [BenchModels.delegate]: (_req, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'answerer', arguments: { task: 'go' } }] } : 'done'),
      [BenchModels.answer]: () => 'done',
      [BenchModels.policy]: (_req, info) => (info.toolResults.length === 0 ? { toolCalls: [{ name: 'refund', arguments: { order_id: 'P1', amount: 50 } }] } : 'done'),
      [BenchModels.parallel]: (_req, info) =>
        info.turnIndex === 0 ? { toolCalls: [1, 2, 3].map((n) => ({ name: 'slow', arguments: { n } })) } : 'done',
    },
  };
}
