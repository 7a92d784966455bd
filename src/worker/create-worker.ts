import { approvalSettingsProblem, type ApprovalSettings } from '../common/approvals';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type InjectedSinks, type WorkerInterceptors, type WorkerOptions } from '@temporalio/worker';
import { bundlerLogger } from './bundler-logger';
import type { DataConverter, Logger } from '@temporalio/common';
import type { ChatModelPort } from '../common/contracts/model-call';
import { createActivities } from '../activities/create-activities';
import { workerRefusedSignal } from '../common/definitions';
import { fleetIdentity, foreignPollers, type ForeignPoller } from './fleet-identity';
import { notificationConfigFromEnv, parseNotificationConfig, type NotificationConfig, type NotificationConfigInput } from '../activities/notify/webhook-config';
import { queryConversationReader } from '../activities/query-conversation-reader';
import { Client } from '@temporalio/client';
import type { Middleware } from '../activities/middleware';
import { createChatModel } from '../model/create-chat-model';
import { AgentRegistry } from '../toolkit/agent-registry';
import type { AgentDefinition } from '../toolkit/define-agent';
import { checkedApprovalPolicy, checkedModelLimits, checkedUserBudgets, readWorkerConfig, type WorkerConfig } from './config';
import { ApprovalPolicies } from '../policy/approval-policies';
import { ModelQuota } from './model-quota';
import { connectNative } from '../connection/connect-native';
import { resolveWorkerConnection } from './worker-connection';
import { ensureSearchAttributes } from './ensure-search-attributes';
import type { McpServersInput, McpServerStatus } from '../mcp';
import { loadWorkerTools } from './worker-tools';
import { agentBundleOptions } from './agent-bundle-options';
import { composeWorkerInterceptors } from './compose-interceptors';
import type { TelemetryOptions } from '../telemetry/telemetry-options';
import { clientInterceptorsFor, tracingWhenWanted } from '../telemetry/tracing-when-wanted';
import { agentWorkerInterceptors, workflowTracingMarker } from '../telemetry/worker-tracing';
import { workerSinks } from '../telemetry/agent-workflow-sinks';
import { installRuntime, type RuntimeMetricsOptions } from '../telemetry/install-runtime';
import { dataConverterFromEnv, describeEncryption } from '../codec/encrypted-data-converter';
import { describeTracing } from '../telemetry/traces-exporter';
import { describeWorker } from './describe-worker';
import { LiveCalls } from '../activities/live-calls';
import { startLiveEndpoint, type LiveEndpoint } from './live-endpoint';
import { WorkerConfigurationError } from './configuration-error';
import { readDeploymentOptions } from './deployment-options';
import type { ServiceHandler } from 'nexus-rpc';
import { agentNexusServiceHandler } from '../nexus/agent-operations';
import { DEFAULT_AGENT_NEXUS_SERVICE } from '../nexus/service-definition';
import { missingNexusEndpoints, nexusEndpointLookup } from './nexus-endpoints';

export interface CreateWorkerOptions {
  agents: AgentDefinition[];
  /**
   * Overrides of the settings read from the environment. Connection: temporalAddress, namespace
   * and `temporal` (TLS, API key, profile) win over TEMPORAL_* variables and the config profile.
   */
  config?: Partial<WorkerConfig>;
  /** An existing connection (the worker does not close it). */
  connection?: NativeConnection;
  /** A model client; by default one is built from OPENAI_BASE_URL / OPENAI_API_KEY. */
  model?: ChatModelPort;
  middleware?: Middleware[];
  /**
   * A workflow bundle made ahead of time (`durable-agent bundle --out FILE` or
   * bundleAgentWorkflows), so the worker starts without webpack; by default the workflow code is
   * bundled at every start.
   */
  workflowBundle?: { codePath: string };
  /**
   * Webhooks told when a call starts waiting for a person and when it is answered, and the inbox URL
   * their links point to. Read from AGENT_WEBHOOKS and AGENT_INBOX_URL when not given.
   */
  notifications?: NotificationConfigInput;
  /** MCP servers in the tools.json shape; merged with the servers of the tools.json file. */
  mcpServers?: McpServersInput;
  /** Logger for MCP connections; Temporal's default logger otherwise. */
  logger?: Logger;
  /**
   * Temporal's data converter (payload converter and codecs, e.g. encryption). Clients that talk to
   * these runs need the same one (AgentClient.connect({ dataConverter })). Without it, payloads are
   * encrypted when AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS configure keys.
   */
  dataConverter?: DataConverter;
  /**
   * Your workflow, activity and Nexus interceptors; they run after the project's own. Workflow
   * interceptor modules are bundled into the workflow code: with a prebuilt `workflowBundle`, give
   * them to bundleAgentWorkflows({ workflowInterceptorModules }) instead.
   */
  interceptors?: WorkerInterceptors;
  /** Sinks the workflow code can call (Temporal's InjectedSinks), merged over the SDK's own. */
  sinks?: InjectedSinks<any>;
  /**
   * Worker Deployment Versioning: deployment name, build id and the default versioning behaviour.
   * Read from AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID and AGENT_VERSIONING_BEHAVIOR when not given.
   */
  deployment?: WorkerOptions['workerDeploymentOptions'];
  /** Passed through to Temporal's Worker.create. */
  workerOptions?: Partial<Pick<WorkerOptions, 'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'identity' | 'shutdownGraceTime' | 'shutdownForceTime' | 'maxCachedWorkflows' | 'maxHeartbeatThrottleInterval'>>;
  log?: (message: string) => void;
  /**
   * Tracing (see docs/observability.md): `{ spanProcessor, captureContent }`, or
   * nothing to follow the OTEL_* environment (off unless it names an exporter); `false`: off.
   */
  telemetry?: TelemetryOptions | false;
  /**
   * Serve Temporal's and the project's metrics for Prometheus at `prometheus` (host:port). Installs
   * Temporal's runtime, which must not exist yet: not with `connection`, nor after another worker
   * or client in this process (then call installRuntime first).
   */
  metrics?: RuntimeMetricsOptions;
  /**
   * Serve the worker's agents as a Nexus service (one operation per agent, see docs/nexus.md):
   * `true` for the service 'durable-agent', or `{ service }` to name it. Callers reach it through a
   * Nexus endpoint that targets this worker's namespace and task queue. AGENT_NEXUS_SERVICE names
   * the service when this is not given; `false` serves none whatever it says.
   */
  nexus?: boolean | { service?: string };
  /** More Nexus services this worker serves (Temporal's `nexusServices`), beside the agents' own. */
  nexusServices?: ServiceHandler<any>[];
}

export interface AgentWorker {
  worker: Worker;
  registry: AgentRegistry;
  config: WorkerConfig;
  /** Each MCP server's state on this worker; a failed one says why (error, stderr tail). Empty without MCP. */
  mcpServers(): McpServerStatus[];
  /**
   * One line that says what is on: agents, address, namespace, task queue, deployment version,
   * metrics, tracing and encryption (a key id, never key material).
   */
  describe(): string;
  /**
   * Warnings about the task queue: other workers polling it serve other agents (a fleet of several
   * agents modules on one queue works, but each step may first reach a worker that leaves it to another).
   */
  fleetWarnings(): Promise<string[]>;
  /** Runs until shutdown() or a signal; closes what the worker opened. */
  run(): Promise<void>;
  shutdown(): void;
}

/** The worker's default approvals settings, parsed like an agent's before any run uses them. */
function checkedApprovals(value: unknown): ApprovalSettings {
  const problem = approvalSettingsProblem('approvals', value);
  if (problem) throw new Error(`Worker configuration: ${problem}.`);
  return value as ApprovalSettings;
}

function fleetWarning(taskQueue: string, agents: string[], other: ForeignPoller): string {
  return (
    `Task queue '${taskQueue}' is shared with worker ${other.identity}, which serves ${other.agents.join(', ') || 'no agent'} (this one: ${agents.join(', ')}). ` +
    `Runs still work: a step that reaches a worker without its agent is left to one that has it, but it costs retries. ` +
    `Give each agents module a task queue of its own (TEMPORAL_TASK_QUEUE) unless they serve the same agents.`
  );
}

function defaultModel(config: WorkerConfig): ChatModelPort {
  if (!config.openaiApiKey && !config.openaiBaseUrl) {
    throw new WorkerConfigurationError(
      'No model endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (any OpenAI-compatible server such as Ollama or vLLM).',
    );
  }
  // Local servers (Ollama, vLLM, llama.cpp) take any key, but the client requires one.
  return createChatModel({
    baseURL: config.openaiBaseUrl,
    apiKey: config.openaiApiKey ?? 'unused',
    defaultModel: config.defaultModel,
    ...(config.textToolCallModels?.length ? { textToolCallModels: config.textToolCallModels } : {}),
    ...(config.constrainedCallModels?.length ? { constrainedCallModels: config.constrainedCallModels } : {}),
  });
}

/** The name of the agents' Nexus service, when the worker serves one: the option's, else AGENT_NEXUS_SERVICE's. */
function agentServiceOf(options: CreateWorkerOptions, config: WorkerConfig): string | undefined {
  const nexus = options.nexus;
  if (nexus === undefined) return config.nexusService;
  if (typeof nexus === 'boolean') return nexus ? DEFAULT_AGENT_NEXUS_SERVICE : undefined;
  if (typeof nexus !== 'object' || nexus === null || (nexus.service !== undefined && (typeof nexus.service !== 'string' || nexus.service.trim() === ''))) {
    throw new WorkerConfigurationError('nexus must be true, false or { service: <a non-empty name> }.');
  }
  return nexus.service ?? DEFAULT_AGENT_NEXUS_SERVICE;
}

function notificationsOf(given: NotificationConfigInput | undefined): NotificationConfig | undefined {
  try {
    return given ? parseNotificationConfig(given) : notificationConfigFromEnv(process.env);
  } catch (error) {
    throw new WorkerConfigurationError((error as Error).message);
  }
}

export async function createWorker(options: CreateWorkerOptions): Promise<AgentWorker> {
  // Resolved first: a bad certificate path or profile fails before any MCP server starts.
  const temporal = resolveWorkerConnection(options.config ?? {}, !options.connection);
  if (options.metrics) installRuntime(options.metrics);
  const tracing = tracingWhenWanted(options.telemetry);
  const config: WorkerConfig = { ...readWorkerConfig(), ...(options.config ?? {}), ...temporal.config };
  const log = options.log ?? ((message: string) => console.log(`[durable-agent] ${message}`));
  const agentService = agentServiceOf(options, config);
  // Before anything starts, so keys that cannot be used fail first. The same converter serves the
  // activities' own client, which reads each run's conversation through a query.
  const encryption = options.dataConverter ? undefined : dataConverterFromEnv();
  const dataConverter = options.dataConverter ?? encryption!.dataConverter;
  const model = options.model ?? defaultModel(config);
  const notifications = notificationsOf(options.notifications);
  const deployment = options.deployment ?? readDeploymentOptions();
  // Read once here: a policy that cannot be loaded is logged now and asks a person for its calls.
  const policies = await ApprovalPolicies.load({
    agents: options.agents,
    ...(config.approvalPolicy ? { workerDefault: checkedApprovalPolicy(config.approvalPolicy) } : {}),
    model,
    warn: log,
  });
  let registry: AgentRegistry | undefined;
  const tools = await loadWorkerTools({
    mcpServers: options.mcpServers,
    toolsConfigPath: config.toolsConfigPath,
    logger: options.logger ?? new DefaultLogger('WARN'),
    // A server that connects later (or changes its tool list) brings its tools to runs started after.
    onServersChanged: () => {
      try {
        registry?.rebuild();
      } catch (error) {
        log(`Could not rebuild the agents' tools: ${(error as Error).message}`);
      }
    },
  });
  let ownConnection: NativeConnection | undefined;
  let live: { calls: LiveCalls; endpoint: LiveEndpoint } | undefined;
  const closeOwned = async () => {
    await live?.endpoint.close();
    await tools.manager?.close();
    await ownConnection?.close();
    await tracing?.close();
  };
  let nativeConnection: NativeConnection;
  let worker: Worker;
  try {
    registry = new AgentRegistry(options.agents, { defaultModel: config.defaultModel, warn: log, ...tools.registryOptions });
    ownConnection = temporal.settings ? await connectNative(temporal.settings) : undefined;
    nativeConnection = options.connection ?? ownConnection!;
    await ensureSearchAttributes(nativeConnection, config.namespace, log);
    for (const warning of await missingNexusEndpoints(nativeConnection, registry)) log(warning);
    // Bundled here rather than by Worker.create, so webpack's statistics go to DEBUG (bundler-logger.ts).
    const workflowBundle =
      options.workflowBundle ??
      (await bundleWorkflowCode({
        ...agentBundleOptions(options.interceptors?.workflowModules ?? []),
        // The converters the workflow code itself uses (an encrypted failure converter, say), as Worker.create would bundle them.
        ...(dataConverter?.payloadConverterPath ? { payloadConverterPath: dataConverter.payloadConverterPath } : {}),
        ...(dataConverter?.failureConverterPath ? { failureConverterPath: dataConverter.failureConverterPath } : {}),
        logger: bundlerLogger(Runtime.instance().logger),
      }));
    const liveSettings = config.live ?? { host: '127.0.0.1', port: 0 };
    if (!('off' in liveSettings)) {
      const calls = new LiveCalls();
      const endpoint = await startLiveEndpoint({ calls, ...liveSettings, publicUrl: liveSettings.url, codecs: dataConverter?.payloadCodecs ?? [] }).catch((error: Error) => {
        throw new WorkerConfigurationError(`The live endpoint could not listen on ${liveSettings.host}:${liveSettings.port}: ${error.message} (AGENT_LIVE_ADDRESS).`);
      });
      live = { calls, endpoint };
    }
    const client = new Client({ connection: nativeConnection, namespace: config.namespace, dataConverter, interceptors: clientInterceptorsFor(tracing) ?? {} });
    const nexusServices = [...(agentService ? [agentNexusServiceHandler(registry.names(), { service: agentService })] : []), ...(options.nexusServices ?? [])];
    worker = await Worker.create({
      connection: nativeConnection,
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      activities: {
        ...workflowTracingMarker(tracing),
        ...createActivities({
          registry,
          model,
          conversations: queryConversationReader(client),
          client,
          nexusEndpoints: nexusEndpointLookup(nativeConnection),
          refusals: async (workflowId, refusal) => {
            await client.workflow.getHandle(workflowId).signal(workerRefusedSignal, refusal);
          },
          middleware: options.middleware,
          tracing,
          ...(notifications ? { notifications } : {}),
          ...(live ? { live: { calls: live.calls, url: live.endpoint.url } } : {}),
          ...(config.userBudgets ? { userBudgets: checkedUserBudgets(config.userBudgets) } : {}),
          policies,
          ...(config.approvals ? { approvals: checkedApprovals(config.approvals) } : {}),
          ...(config.modelLimits ? { quota: new ModelQuota(client, config.taskQueue, checkedModelLimits(config.modelLimits), config.defaultModel) } : {}),
        }),
      },
      workflowBundle,
      ...(nexusServices.length > 0 ? { nexusServices } : {}),
      // Heartbeats otherwise reach the server only every 0.8 × heartbeat timeout (48 s for model
      // calls), and `watch` shows a streaming call's partial text from the last one that arrived.
      maxHeartbeatThrottleInterval: '1s',
      // On shutdown, running tools get a few seconds, then their cancellation signal; a tool that
      // ignores it cannot hold the process forever (its call is retried by another worker).
      shutdownGraceTime: '5s',
      shutdownForceTime: '30s',
      // The namespace's payload limits are left to the server. The worker's own check fails the
      // workflow task of a completion over them, and the refusal of an update echoes its request,
      // so an update over 2 MiB would fail the run's task again at every retry. The server refuses
      // such updates before they reach the run (history.maxInFlightUpdatePayloads, docs/production.md).
      disablePayloadErrorLimit: true,
      maxCachedWorkflows: config.maxCachedRuns,
      // The workflow interceptor modules are in the bundle, whichever made it.
      interceptors: composeWorkerInterceptors(agentWorkerInterceptors(tracing, true), { ...options.interceptors, workflowModules: [] }),
      dataConverter,
      sinks: { ...workerSinks(tracing), ...(options.sinks ?? {}) },
      ...(deployment ? { workerDeploymentOptions: deployment } : {}),
      identity: fleetIdentity(registry.names()),
      ...(options.workerOptions ?? {}),
    });
  } catch (error) {
    // Without this, the MCP servers started above would outlive a worker that never runs.
    await closeOwned();
    throw error;
  }

  return {
    worker,
    registry,
    config,
    mcpServers: () => tools.manager?.serverStatus() ?? [],
    async fleetWarnings() {
      const others = await foreignPollers(nativeConnection, config.namespace, config.taskQueue, registry!.names(), worker.options.identity).catch(() => []);
      return others.map((other) => fleetWarning(config.taskQueue, registry!.names(), other));
    },
    describe: () =>
      describeWorker({
        agents: registry!.names(),
        config,
        deployment,
        metrics: options.metrics,
        tracing: options.telemetry === false ? 'off' : tracing ? describeTracing(options.telemetry) : 'off',
        encryption: options.dataConverter ? 'your data converter' : describeEncryption(encryption!.keys),
        ...(notifications ? { notifications } : {}),
        live: live?.endpoint.url,
        ...(agentService ? { nexusService: agentService } : {}),
      }),
    async run() {
      try {
        await worker.run();
      } finally {
        await closeOwned();
      }
    },
    shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}
