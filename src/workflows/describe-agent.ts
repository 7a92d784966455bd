import { isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { AgentDescriptor } from '../common/agent';
import { AGENT_NAME, AGENT_STATUS } from '../common/search-attributes';
import { localActivities } from './activities-proxy';
import { toWorkflowFailure } from './fail-run';

/** The agent as the worker knows it, recorded for the whole run; an unknown agent fails the run at once. */
export async function describeAgent(agent: string): Promise<AgentDescriptor> {
  try {
    return await localActivities.describeAgent.executeWithOptions(
      { summary: `describe agent ${agent}`, startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } },
      [{ agent }],
    );
  } catch (error) {
    if (isCancellation(error)) throw error;
    upsertSearchAttributes([
      { key: AGENT_NAME, value: agent },
      { key: AGENT_STATUS, value: 'failed' },
    ]);
    throw toWorkflowFailure(error);
  }
}

