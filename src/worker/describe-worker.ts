import type { RuntimeMetricsOptions } from '../telemetry/install-runtime';
import type { WorkerConfig } from './config';
import type { WorkerDeployment } from './deployment-options';

export interface WorkerFacts {
  agents: string[];
  config: Pick<WorkerConfig, 'temporalAddress' | 'namespace' | 'taskQueue'>;
  deployment: WorkerDeployment | undefined;
  metrics: RuntimeMetricsOptions | undefined;
  tracing: string;
  encryption: string;
  /** Webhooks told when calls wait, and the inbox their links point to. */
  notifications?: { webhooks: unknown[]; inboxUrl?: string };
  /** Where streaming model calls' deltas are served; undefined when off. */
  live?: string;
  /** The Nexus service the agents are served as; undefined when none. */
  nexusService?: string;
}

/** The worker's start line: what it serves, where, and which of versioning, metrics, tracing, encryption and webhooks are on. */
export function describeWorker(facts: WorkerFacts): string {
  const { temporalAddress, namespace, taskQueue } = facts.config;
  const version = facts.deployment?.version;
  return [
    `worker for ${facts.agents.join(', ')} on ${temporalAddress}, namespace ${namespace}, task queue ${taskQueue}`,
    version ? `version ${version.deploymentName}.${version.buildId} (${(facts.deployment!.defaultVersioningBehavior ?? 'PINNED').toLowerCase()})` : 'unversioned',
    facts.metrics ? `metrics at http://${facts.metrics.prometheus}/metrics` : 'no metrics',
    facts.tracing === 'off' ? 'no tracing' : `tracing to ${facts.tracing}`,
    facts.encryption,
    facts.notifications ? `${facts.notifications.webhooks.length} webhook(s)${facts.notifications.inboxUrl ? `, inbox links to ${facts.notifications.inboxUrl}` : ''}` : 'no webhooks',
    facts.live ? `live deltas at ${facts.live}` : 'no live endpoint',
    ...(facts.nexusService ? [`Nexus service ${facts.nexusService}`] : []),
  ].join('; ');
}
