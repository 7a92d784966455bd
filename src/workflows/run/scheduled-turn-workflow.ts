import { workflowInfo } from '@temporalio/workflow';
import type { ScheduledTurnInput, ScheduledTurnResult } from '../../common/scheduled-turn';
import { scheduledTurnActivities } from '../platform';

/**
 * What a conversation schedule starts at each fire (a schedule's action can only start a
 * workflow): it sends the schedule's prompt as one turn of the named conversation through an
 * activity, and ends with the turn's answer. Its run is the turn's update id, so the send is
 * done once however often the activity is retried. The workflow id alone would not do: it names
 * the fire's second, which a trigger in that second shares, and the conversation would answer
 * that trigger with the earlier fire's turn (an update id is answered once).
 */
export async function scheduledTurnWorkflow(input: ScheduledTurnInput): Promise<ScheduledTurnResult> {
  const { workflowId, runId } = workflowInfo();
  return scheduledTurnActivities.sendScheduledTurn({ ...input, updateId: `${workflowId}/${runId}` });
}
