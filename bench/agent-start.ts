import { START_INPUT_VERSION } from '../src/common/run';
import type { AgentRunOptions } from '../src/common/run';
import { AGENT_NAME, AGENT_STATUS } from '../src/common/search-attributes';

/** The start input AgentClient.start gives a run (with the start input's version). */
export function agentInput(agent: string, prompt: string, options?: AgentRunOptions) {
  return { agent, prompt, startInputVersion: START_INPUT_VERSION, runtime: {}, ...(options ? { options } : {}) };
}

/** What AgentClient.start sets on a run besides its input: the bench starts agent runs the way users do. */
export function agentStartAttributes(agent: string) {
  return {
    typedSearchAttributes: [
      { key: AGENT_NAME, value: agent },
      { key: AGENT_STATUS, value: 'running' },
    ],
  };
}
