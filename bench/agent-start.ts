import { AGENT_NAME, AGENT_STATUS } from '../src/common/search-attributes';

/** What AgentClient.start sets on a run besides its input: the bench starts agent runs the way users do. */
export function agentStartAttributes(agent: string) {
  return {
    typedSearchAttributes: [
      { key: AGENT_NAME, value: agent },
      { key: AGENT_STATUS, value: 'running' },
    ],
  };
}
