'use strict';
// Starts and stops a local Temporal dev server (`temporal server start-dev`) on SQLite.
// Node built-ins only, so `npm start`, the demo and the jest setup can all use it.

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync, execFile } = require('node:child_process');

/**
 * `name=Type` pairs for `--search-attribute`. The same list as SEARCH_ATTRIBUTE_FLAGS in
 * src/common/search-attributes.ts (test/docker-compose.test.ts checks that they agree).
 */
const SEARCH_ATTRIBUTE_FLAGS = ['AgentName=Keyword', 'AgentStatus=Keyword', 'AgentTotalTokens=Int', 'AgentSessionId=Keyword', 'AgentTurns=Int', 'AgentForkOf=Keyword'];

/**
 * Dynamic configuration of the dev server (docs/production.md, "What a cluster should enable"): eager
 * activity dispatch, eager workflow start, and a history shard that loads new tasks as they come.
 * The dev server has one shard, which by default loads new tasks at most 20 times a second: that
 * alone added ~35 ms before every workflow task (measured: 2 no-op activities took 150 ms, 53 ms
 * with the limit raised), a bound a cluster with hundreds of shards does not meet.
 *
 * The last one refuses an update of 2 MiB - 64 KiB or more (counted with the run's other updates
 * in flight) before it reaches the run. Without it the server hands such an update to the worker,
 * whose refusal carries the request back and so is over the 2 MiB blob limit, and Server 1.32
 * panics in RespondWorkflowTaskCompleted (test/workflows/boundary/oversized-update-server.test.ts).
 * The 64 KiB leave room for the reason.
 *
 * Fairness: runs started for a user carry the user as their fairness key, and with this setting
 * the server dispatches each key's tasks in turn, so one user's backlog does not hold another's
 * runs behind it (Server 1.32; without it, keys are ignored and tasks go first in, first out).
 * Fairness is kept within a task queue partition: one partition keeps the shares exact here.
 */
const DEV_SERVER_DYNAMIC_CONFIG = [
  'system.enableActivityEagerExecution=true',
  'system.enableEagerWorkflowStart=true',
  'history.transferProcessorMaxPollRPS=1000',
  'history.maxInFlightUpdatePayloads=2031616',
  'matching.useNewMatcher=true',
  'matching.enableFairness=true',
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
];

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_DB_FILE = path.join(ROOT, '.temporal', 'dev-server.sqlite');
const HOST = '127.0.0.1';

const { isAlive, readTail, sleep, terminate } = require('./processes.cjs');

function parseAddress(address) {
  const at = address.lastIndexOf(':');
  if (at <= 0) throw new Error(`invalid Temporal address "${address}": expected host:port`);
  const port = Number(address.slice(at + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`invalid port in Temporal address "${address}"`);
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port };
}

/** True when a TCP connection to `address` (host:port) opens within `timeoutMs`. */
function isTemporalReachable(address, timeoutMs = 1000) {
  const { host, port } = parseAddress(address);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (reachable) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `count` distinct free ports, all held open together while they are chosen. */
async function findFreePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = net.createServer();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, HOST, resolve);
      });
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve()))));
  }
}


let pdeathsigSupport;
/** Linux: run the server under `setpriv --pdeathsig` so it gets SIGTERM when its parent dies. */
function withParentDeathSignal(command, args) {
  if (process.platform !== 'linux') return [command, args];
  if (pdeathsigSupport === undefined) {
    const help = spawnSync('setpriv', ['--help'], { encoding: 'utf8' });
    pdeathsigSupport = help.status === 0 && String(help.stdout).includes('--pdeathsig');
  }
  return pdeathsigSupport ? ['setpriv', ['--pdeathsig', 'TERM', '--', command, ...args]] : [command, args];
}

function devServerArgs({ port, uiPort, dbFile, headless, namespace, namespaces = [], dynamicConfig }) {
  const args = [
    'server', 'start-dev',
    '--ip', HOST,
    '--port', String(port),
    '--db-filename', dbFile,
    '--sqlite-pragma', 'journal_mode=WAL',
    '--sqlite-pragma', 'synchronous=OFF',
    '--log-level', 'warn',
  ];
  for (const setting of dynamicConfig) args.push('--dynamic-config-value', setting);
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
  if (namespace !== 'default') args.push('--namespace', namespace);
  // More namespaces created at launch (a Nexus endpoint's caller and target, say).
  for (const more of namespaces) args.push('--namespace', more);
  if (headless) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-disable-news-fetch');
  return args;
}

/** Resolves when the namespace answers and lists all of the project's search attributes. */
function searchAttributesReady(cliPath, address, namespace) {
  const args = [
    'operator', 'search-attribute', 'list',
    '--address', address, '--namespace', namespace, '--output', 'json',
    '--disable-config-file', '--disable-config-env', '--command-timeout', '5s',
  ];
  return new Promise((resolve) => {
    execFile(cliPath, args, { timeout: 10000 }, (error, stdout) => {
      if (error) return resolve(false);
      try {
        const custom = JSON.parse(stdout).customAttributes || {};
        resolve(SEARCH_ATTRIBUTE_FLAGS.every((flag) => flag.split('=')[0] in custom));
      } catch {
        resolve(false);
      }
    });
  });
}


function looksLikeDevServer(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start-dev');
  } catch {
    return process.platform !== 'linux';
  }
}


/**
 * Stops a dev server by PID (SIGTERM, then SIGKILL after `timeoutMs`), also one started by
 * another process. Returns false when no dev server with that PID was running.
 */
async function stopDevServerByPid(pid, { timeoutMs = 10000 } = {}) {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !looksLikeDevServer(pid)) return false;
  return terminate(pid, { timeoutMs });
}

/**
 * Spawns `temporal server start-dev` on 127.0.0.1 with a persistent SQLite file and the
 * project's search attributes, and resolves once the namespace is usable.
 * Returns { address, uiUrl, pid, port, uiPort, dbFile, logFile, namespace, stop() }.
 */
/**
 * The dev server, started again (up to `attempts` times) when it exits before it is ready: it
 * picks its internal services' ports itself when it starts, and another server starting at the
 * same moment on this machine may take one of them first (a panic at start, nothing served).
 */
async function startDevServer(options = {}) {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startDevServerOnce(options);
    } catch (error) {
      if (!error.exitedEarly || attempt >= attempts) throw error;
      (options.log ?? (() => {}))(`Temporal dev server exited before it was ready (${error.firstLine}); starting it again (attempt ${attempt + 1} of ${attempts})`);
      await sleep(1000);
    }
  }
}

async function startDevServerOnce({
  cliPath,
  port = 7233,
  uiPort = 8233,
  dbFile = DEFAULT_DB_FILE,
  headless = false,
  namespace = 'default',
  namespaces = [],
  dynamicConfig = DEV_SERVER_DYNAMIC_CONFIG,
  log = () => {},
  startTimeoutMs = 60000,
} = {}) {
  if (!cliPath) {
    throw new Error('startDevServer needs cliPath: resolve it with findTemporalCli() from scripts/temporal-cli.cjs');
  }
  const address = `${HOST}:${port}`;
  if (await isTemporalReachable(address, 500)) {
    throw new Error(
      `cannot start the Temporal dev server: ${address} is already in use. ` +
        `Stop what listens there, pick another port, or set TEMPORAL_ADDRESS=${address} to use that server.`,
    );
  }
  const absoluteDb = path.resolve(dbFile);
  fs.mkdirSync(path.dirname(absoluteDb), { recursive: true });
  const logFile = `${absoluteDb}.log`;
  const args = devServerArgs({ port, uiPort, dbFile: absoluteDb, headless, namespace, namespaces, dynamicConfig });
  const [command, commandArgs] = withParentDeathSignal(cliPath, args);
  log(`starting Temporal dev server on ${address} (db ${absoluteDb}${headless ? '' : `, UI port ${uiPort}`})`);

  const out = fs.openSync(logFile, 'w');
  let child;
  try {
    child = spawn(command, commandArgs, { stdio: ['ignore', out, out] });
  } finally {
    fs.closeSync(out);
  }
  let exited = null;
  let spawnError = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  const killOnExit = () => {
    if (!exited) child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);

  const stop = async ({ timeoutMs = 10000 } = {}) => {
    process.removeListener('exit', killOnExit);
    if (exited || spawnError) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await gone;
    clearTimeout(timer);
  };

  const fail = async (reason) => {
    await stop({ timeoutMs: 3000 });
    // A Go panic's own line comes before its long stack, which the tail alone would show.
    const output = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    const firstLine = output.split('\n').find((line) => /^(panic|fatal error|Error):? /.test(line)) ?? reason;
    const message =
      `Temporal dev server ${reason}: ${firstLine}\n  command: ${cliPath} ${args.join(' ')}\n` +
      `  server output (${logFile}):\n${readTail(logFile)}`;
    return Object.assign(new Error(message), { exitedEarly: exited !== null, firstLine });
  };

  const deadline = Date.now() + startTimeoutMs;
  let tcpUp = false;
  for (;;) {
    if (spawnError) throw await fail(`could not be spawned (${spawnError.message})`);
    if (exited) throw await fail(`exited (code ${exited.code}, signal ${exited.signal}) before it was ready`);
    if (Date.now() > deadline) throw await fail(`was not ready within ${Math.round(startTimeoutMs / 1000)}s`);
    tcpUp = tcpUp || (await isTemporalReachable(address, 1000));
    if (tcpUp && (await searchAttributesReady(cliPath, address, namespace))) break;
    await sleep(tcpUp ? 500 : 200);
  }
  child.unref();
  const uiUrl = headless ? null : `http://${HOST}:${uiPort}`;
  log(`Temporal dev server ready at ${address}${uiUrl ? `, UI ${uiUrl}` : ''} (pid ${child.pid})`);
  return { address, uiUrl, pid: child.pid, port, uiPort, dbFile: absoluteDb, logFile, namespace, stop };
}

module.exports = {
  SEARCH_ATTRIBUTE_FLAGS,
  DEV_SERVER_DYNAMIC_CONFIG,
  DEFAULT_DB_FILE,
  startDevServer,
  stopDevServerByPid,
  isTemporalReachable,
  findFreePort,
  findFreePorts,
};
