import type { ApprovalSettings } from '../common/approvals';
import type { AgentRegistry } from '../toolkit/agent-registry';
import { callModelActivity, type LiveChannel } from './call-model';
import { checkOutputActivity } from './check-output';
import type { ChatModelPort } from '../common/contracts/model-call';
import { compactConversationActivity } from './compact-conversation';
import { ConversationCache } from './conversation-cache';
import type { ConversationReader } from '../common/contracts/conversation-reader';
import { describeAgentActivity } from './describe-agent';
import type { Budget } from '../common/budget';
import type { ModelQuotaPort } from '../common/contracts/model-quota';
import { executeToolActivity } from './execute-tool';
import { ToolResultCache } from './tool-result-cache';
import type { Middleware } from './middleware';
import type { ActivityTracing } from '../telemetry/activity-tracing';
import { notifyWaitActivity } from './notify-wait';
import type { NotificationConfig } from './notify/webhook-config';
import { prepareToolCallsActivity, validateEditedInputActivity, type NexusEndpointLookup } from './prepare-tool-calls';
import { checkNexusOutputActivity } from './check-nexus-output';
import { ServedAgents, type RefusalReporter } from './served-agent';
import { sendScheduledTurnActivity } from './send-scheduled-turn';
import type { Client } from '@temporalio/client';
import type { ApprovalPolicies } from '../policy';

export interface ActivityDeps {
  registry: AgentRegistry;
  model: ChatModelPort;
  /** How model calls read the run's conversation (see queryConversationReader). */
  conversations: ConversationReader;
  middleware?: Middleware[];
  /** Spans for model and tool calls; none when undefined. */
  tracing?: ActivityTracing;
  /** Webhooks told when calls wait and are answered; none when undefined. */
  notifications?: NotificationConfig;
  /** Tells a run that this worker left one of its steps to another (it serves another agents module). */
  refusals?: RefusalReporter;
  /** Where streaming model calls' deltas are served as they are written; none when undefined. */
  live?: LiveChannel;
  /** The fleet-wide quota of rate-limited models (see common/model-limits.ts); none when undefined. */
  quota?: ModelQuotaPort;
  /** Budgets for the runs of a user, by user id (`*`: any user); see WorkerConfig.userBudgets. */
  userBudgets?: Record<string, Budget>;
  /** The approvals settings of agents that set none of their own (field by field): see common/approvals.ts. */
  approvals?: ApprovalSettings;
  /** The approval policies that decide what the rules ask about (see docs/policies.md); none when undefined. */
  policies?: ApprovalPolicies;
  /** The worker's client, through which a conversation schedule's fires send their turns (see docs/schedules.md). */
  client?: Pick<Client, 'workflow'>;
  /** Whether a Nexus endpoint exists: a nexusTool's call on one the cluster lacks is an error result, not a command the server refuses. */
  nexusEndpoints?: NexusEndpointLookup;
}

/** Without the worker's client, a scheduled turn fails at once, saying why (createWorker always gives one). */
function missingClient(): Pick<Client, 'workflow'> {
  return new Proxy({} as Pick<Client, 'workflow'>, {
    get() {
      throw new Error('This worker was built without a Temporal client (ActivityDeps.client): it cannot send a scheduled turn.');
    },
  });
}

/** The worker's activities, bound to its dependencies. The workflow imports this type only. */
export function createActivities(deps: ActivityDeps) {
  const middleware = deps.middleware ?? [];
  // One cache for the model calls and the compaction that reads the same conversations.
  const cache = new ConversationCache();
  // What the tool activities returned, for the model calls that name it (tool-result-references.ts).
  const toolResults = new ToolResultCache();
  // Every step of a run is this worker's only when it serves the run's agent (see served-agent.ts).
  const agents = new ServedAgents(deps.registry, deps.refusals);
  return {
    describeAgent: describeAgentActivity(agents, (deps.notifications?.webhooks.length ?? 0) > 0, deps.userBudgets, deps.approvals),
    callModel: agents.only(callModelActivity(deps.model, deps.conversations, middleware, deps.tracing, cache, toolResults, deps.live, deps.quota)),
    compactConversation: agents.only(compactConversationActivity(deps.model, deps.conversations, cache)),
    prepareToolCalls: prepareToolCallsActivity(agents, deps.policies, deps.nexusEndpoints),
    validateEditedInput: validateEditedInputActivity(agents),
    checkOutput: agents.only(checkOutputActivity(agents)),
    checkNexusOutput: agents.only(checkNexusOutputActivity(agents)),
    executeTool: executeToolActivity(agents, middleware, deps.tracing, toolResults, deps.policies),
    notifyWait: notifyWaitActivity(deps.notifications),
    sendScheduledTurn: sendScheduledTurnActivity(deps.client ?? missingClient()),
  };
}

export type AgentActivities = ReturnType<typeof createActivities>;
