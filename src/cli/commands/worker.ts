import { untilStopped } from '../until-stopped';
import type { CliCommand } from '../command';

const DETAILS = [
  'A worker for the agents of --module (a JavaScript or TypeScript module that exports `agents`, and',
  'optionally `mcpServers` and `taskQueue`; TypeScript runs as it is, nothing to build or install), or for the demo',
  'agents with --demo. Every setting is a flag or its environment variable (flags win); the model',
  'endpoint comes from OPENAI_BASE_URL / --model-url, its key only from OPENAI_API_KEY (never a flag:',
  'flags show in the process list). Tracing follows the standard OTEL_* variables. It prints one line',
  'that says what is on, keeps --health-file fresh while it polls (`durable-agent health` checks it),',
  'and on Ctrl-C or SIGTERM lets running tools finish (5 s, then cancels them; their calls go to other',
  'workers). When its configuration is incomplete it says what to set and exits 0, so a container',
  "restarted on failure does not loop on it. Run as many as you like on one task queue: that's scaling.",
  'The task queue is --task-queue (TEMPORAL_TASK_QUEUE), else the module\'s `taskQueue` export, else durable-agent.',
  'Workers of different agents modules belong on queues of their own: it warns when the queue is shared.',
].join('\n');

export const workerCommand: CliCommand = {
  name: 'worker',
  usage: 'worker (--module PATH | --demo) [--workflow-bundle FILE] [--health-file FILE] [--deployment-name NAME --build-id ID [--versioning-behavior B]] [--metrics HOST:PORT] [--max-cached-runs N] [--nexus-service NAME] [--live-address HOST:PORT|off] [--live-url URL] [--model NAME] [--model-url URL] [--text-tool-calls MODELS] [--constrained-calls MODELS] [--tools-config PATH] [--workspace DIR]',
  summary: 'Run a worker for your agents module (JavaScript or TypeScript) or the demo agents, configured by flags or environment variables.',
  details: DETAILS,
  options: {
    module: { type: 'string', valueName: 'PATH', description: 'the module whose `agents` (and `mcpServers`) the worker serves', env: 'AGENT_MODULE' },
    demo: { type: 'boolean', description: 'serve the demo agents instead', env: 'AGENT_DEMO' },
    'workflow-bundle': { type: 'string', valueName: 'FILE', description: 'a bundle made by `durable-agent bundle`, so the worker starts without webpack', env: 'AGENT_WORKFLOW_BUNDLE' },
    'health-file': { type: 'string', valueName: 'FILE', description: 'a file kept fresh while the worker polls, for health checks', env: 'AGENT_HEALTH_FILE' },
    'deployment-name': { type: 'string', valueName: 'NAME', description: 'Worker Deployment Versioning: the deployment (with --build-id)', env: 'AGENT_DEPLOYMENT_NAME' },
    'build-id': { type: 'string', valueName: 'ID', description: 'the build id of this version (with --deployment-name)', env: 'AGENT_BUILD_ID' },
    'versioning-behavior': {
      type: 'string',
      valueName: 'B',
      description: 'what runs started on this version do when a newer one becomes current',
      env: 'AGENT_VERSIONING_BEHAVIOR',
      defaultText: 'pinned',
      choices: ['pinned', 'auto-upgrade'],
    },
    metrics: { type: 'string', valueName: 'HOST:PORT', description: "serve Temporal's and the agents' metrics for Prometheus at http://HOST:PORT/metrics", env: 'AGENT_PROMETHEUS_ADDRESS' },
    'max-cached-runs': { type: 'string', valueName: 'N', description: 'runs kept in memory between their workflow tasks (0: none)', env: 'AGENT_MAX_CACHED_RUNS', defaultText: '150' },
    'nexus-service': { type: 'string', valueName: 'NAME', description: 'serve the agents as a Nexus service of this name, an operation per agent (docs/nexus.md)', env: 'AGENT_NEXUS_SERVICE', defaultText: 'none' },
    'live-address': {
      type: 'string',
      valueName: 'HOST:PORT',
      description: "where the live endpoint listens that serves streaming model calls' text to run.stream() readers (off: none)",
      env: 'AGENT_LIVE_ADDRESS',
      defaultText: '127.0.0.1:0',
    },
    'live-url': { type: 'string', valueName: 'URL', description: 'the address of the live endpoint readers are given, when it differs from the bound one', env: 'AGENT_LIVE_URL', defaultText: 'the bound address' },
    model: { type: 'string', valueName: 'NAME', description: 'the model agents use when they name none', env: 'AGENT_MODEL', defaultText: 'gpt-4o-mini' },
    'model-url': { type: 'string', valueName: 'URL', description: 'an OpenAI-compatible endpoint (Ollama, vLLM, …)', env: 'OPENAI_BASE_URL', defaultText: "OpenAI's" },
    'text-tool-calls': {
      type: 'string',
      valueName: 'MODELS',
      description: 'models (comma-separated, or *) whose tool calls written in the reply text are read as tool calls (small open models)',
      env: 'AGENT_TEXT_TOOL_CALLS',
      defaultText: 'none',
    },
    'constrained-calls': {
      type: 'string',
      valueName: 'MODELS',
      description: "models (comma-separated, or *) whose replies are held to a call of an offered tool or an answer by the server's JSON-schema grammar (llama-server, vLLM)",
      env: 'AGENT_CONSTRAINED_CALLS',
      defaultText: 'none',
    },
    'tools-config': { type: 'string', valueName: 'PATH', description: 'MCP servers and tool filter', env: 'AGENT_TOOLS_CONFIG', defaultText: '$AGENT_WORKSPACE/tools.json' },
    workspace: { type: 'string', valueName: 'DIR', description: 'the folder the built-in file and shell tools work in', env: 'AGENT_WORKSPACE', defaultText: 'workspace' },
  },
  examples: [
    'worker --module ./agents.ts',
    'worker --module ./dist/agents.js --task-queue agents --workflow-bundle ./workflow-bundle.js --health-file /tmp/worker.health',
    'worker --demo --model-url http://localhost:11434/v1 --model qwen3',
    'worker --module ./agents.js --deployment-name agents --build-id 2026-12-01 --metrics 0.0.0.0:9464',
  ],
  async run(ctx) {
    // Flags are the variables they stand for, so every part of the worker reads one set of settings.
    Object.assign(process.env, ctx.flagEnvironment());
    const { readEntrySettings } = require('../worker-settings') as typeof import('../worker-settings');
    const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
    const { WorkerConfigurationError } = require('../../worker/configuration-error') as typeof import('../../worker/configuration-error');
    const { EncryptionKeyError } = require('../../codec/encryption-key-error') as typeof import('../../codec/encryption-key-error');
    const log = (message: string) => ctx.output.err(`[durable-agent] ${message}`);
    try {
      const settings = readEntrySettings();
      const configured = readWorkerConfig();
      const { loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
      const { createWorker } = require('../../worker/create-worker') as typeof import('../../worker/create-worker');
      const { metricsFromEnv } = require('../../telemetry/metrics-env') as typeof import('../../telemetry/metrics-env');
      const { agents, mcpServers, taskQueue } = await loadCommandAgents(settings.agents, configured.workspace);
      // The module's own queue unless TEMPORAL_TASK_QUEUE (or --task-queue) names one.
      const config = taskQueue && !process.env.TEMPORAL_TASK_QUEUE ? { ...configured, taskQueue } : configured;
      const worker = await createWorker({
        agents,
        config,
        ...(mcpServers ? { mcpServers } : {}),
        ...(settings.workflowBundle ? { workflowBundle: { codePath: settings.workflowBundle } } : {}),
        ...(settings.deployment ? { deployment: settings.deployment } : {}),
        ...metricsFromEnv(),
        log,
      });
      ctx.output.out(`[durable-agent] ${worker.describe()}`);
      const running = worker.run();
      for (const warning of await worker.fleetWarnings()) log(`warning: ${warning}`);
      const { startHealthFile } = require('../../worker/health-file') as typeof import('../../worker/health-file');
      const health = settings.healthFile ? startHealthFile(settings.healthFile, worker.worker) : undefined;
      void untilStopped(running.then(() => undefined, () => undefined)).then(() => worker.shutdown());
      try {
        await running;
      } finally {
        health?.stop();
      }
      return 0;
    } catch (error) {
      if (!(error instanceof WorkerConfigurationError || error instanceof EncryptionKeyError)) throw error;
      // Exit 0: a restart cannot fix configuration, so `restart: on-failure` must not loop on it.
      log(`worker not started: ${error.message}`);
      return 0;
    }
  },
};
