'use strict';
// A Temporal cluster on PostgreSQL, every service a process of its own: start it (from nothing,
// or whatever of it is not running), stop it, and kill or restart one process of it by PID.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { findTemporalCli } = require('../temporal-cli.cjs');
const { CONFIG_FILE, ROOT, clusterLayout, serviceEnv } = require('./layout.cjs');
const { ensureNamespace } = require('./namespace.cjs');
const { findPostgresBin, initDataDir, postgresMajor, postgresSpec, runAsUser, waitForPostgres, accepts } = require('./postgres.cjs');
const { isAlive, killPid, readTail, runs, sleep, spawnDetached, stopPid } = require('../processes.cjs');
const { createSchemas, updateSchemas } = require('./schema.cjs');
const { SERVER_VERSION, ensureServerTools } = require('./server-build.cjs');
const { readState, writeState } = require('./state.cjs');

// Stopped in this order: clients of the others first, the database last.
const STOP_ORDER = ['frontend', 'worker', 'matching-1', 'matching-2', 'history-1', 'history-2', 'postgres'];

function serviceSpec(layout, service, tools, db) {
  return {
    command: tools.server,
    args: ['--config-file', CONFIG_FILE, '--allow-no-auth', 'start', '--service', service.service],
    env: serviceEnv(layout, service, db),
    cwd: layout.dir,
    log: service.log,
    match: tools.server,
    port: service.grpc,
  };
}

function isRunning(entry) {
  return Boolean(entry) && runs(entry.pid, entry.spec.match);
}

/** Resolves once `port` accepts connections; fails with the log's tail when the process exits first. */
async function waitForPort(name, entry, timeoutMs = 90000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(entry.spec.port))) {
    if (!isAlive(entry.pid)) throw new Error(`${name} exited while starting; ${entry.spec.log}:\n${readTail(entry.spec.log)}`);
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${entry.spec.port} within ${timeoutMs / 1000} s; ${entry.spec.log}:\n${readTail(entry.spec.log)}`);
    await sleep(200);
  }
}

function password(layout) {
  const file = path.join(layout.dir, 'db-password');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(18).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

async function refuseTakenPorts(layout, state) {
  const wanted = [['postgres', layout.postgres.port], ...layout.services.map((s) => [s.name, s.grpc])];
  for (const [name, port] of wanted) {
    if (isRunning(state.processes[name])) continue;
    if (await accepts(port)) throw new Error(`127.0.0.1:${port} (for ${name}) is taken by another program: stop it or pick another --port-offset`);
  }
}

/**
 * Brings the cluster in `options.dir` up: builds the server once, creates the PostgreSQL data
 * folder and schemas on the first start, starts every process that is not running, creates the
 * namespace and registers the search attributes. Resolves with the state (address, PIDs).
 */
async function startCluster(options = {}) {
  try {
    return await bringUp(options);
  } catch (error) {
    await stopCluster(options);
    throw error;
  }
}

async function bringUp(options) {
  const log = options.log || (() => {});
  const layout = clusterLayout(options);
  fs.mkdirSync(path.join(layout.dir, 'logs'), { recursive: true });
  // PostgreSQL's user must be able to walk into the folder.
  fs.chmodSync(layout.dir, 0o755);
  const tools = ensureServerTools({ root: ROOT, log });
  const cliPath = findTemporalCli({ root: ROOT, install: true, log });
  if (!cliPath) throw new Error('no Temporal CLI for the operator commands: run `node scripts/temporal-cli.cjs`');
  const bin = findPostgresBin();
  if (!bin) throw new Error('no PostgreSQL server found (postgres and initdb): install PostgreSQL 12 or newer, or set TEMPORAL_CLUSTER_PG_BIN');
  if (postgresMajor(bin) < 12) throw new Error(`PostgreSQL in ${bin} is older than 12, which Temporal's postgres12 plugin needs`);

  const previous = readState(layout.stateFile);
  const state = {
    serverVersion: SERVER_VERSION,
    address: layout.address,
    namespace: layout.namespace,
    dir: layout.dir,
    offset: layout.offset,
    shards: layout.shards,
    processes: previous ? previous.processes : {},
  };
  const fresh = !fs.existsSync(layout.initializedFile);
  if (fresh) {
    // A first start that did not finish: begin again from nothing.
    await stopCluster(options);
    state.processes = {};
    fs.rmSync(layout.dataDir, { recursive: true, force: true });
  }
  await refuseTakenPorts(layout, state);
  const db = { port: layout.postgres.port, password: password(layout) };
  const runAs = runAsUser();

  if (!isRunning(state.processes.postgres)) {
    initDataDir({ bin, dataDir: layout.dataDir, password: db.password, runAs, log });
    const spec = { ...postgresSpec({ bin, dataDir: layout.dataDir, port: db.port, runAs, log: layout.postgres.log }), port: db.port };
    state.processes.postgres = { pid: spawnDetached(spec), spec };
    writeState(layout.stateFile, state);
    // Alive is enough here: until setpriv has exec'd PostgreSQL, the PID runs setpriv.
    const pid = state.processes.postgres.pid;
    await waitForPostgres({ bin, port: db.port, isUp: () => isAlive(pid) }).catch((error) => {
      throw new Error(`${error.message}; ${layout.postgres.log}:\n${readTail(layout.postgres.log)}`);
    });
    log(`PostgreSQL ${postgresMajor(bin)} on 127.0.0.1:${db.port} (pid ${state.processes.postgres.pid})`);
  }
  if (fresh) createSchemas(tools.sqlTool, db, log);
  updateSchemas(tools.sqlTool, db, log);

  const start = async (services) => {
    const names = [];
    for (const service of services) {
      if (isRunning(state.processes[service.name])) continue;
      const spec = serviceSpec(layout, service, tools, db);
      state.processes[service.name] = { pid: spawnDetached(spec), spec };
      names.push(service.name);
    }
    writeState(layout.stateFile, state);
    await Promise.all(names.map((name) => waitForPort(name, state.processes[name])));
    return names;
  };
  // The first process writes the cluster's metadata record; processes that start with it race
  // for that write, and the losers exit.
  const started = [...(await start(layout.services.slice(0, 1))), ...(await start(layout.services.slice(1)))];
  if (started.length > 0) log(`started ${started.map((name) => `${name} (pid ${state.processes[name].pid})`).join(', ')}`);
  await ensureNamespace({ cliPath, address: layout.address, namespace: layout.namespace, log });
  fs.writeFileSync(layout.initializedFile, `${new Date().toISOString()}\n`);
  return state;
}

/** Stops every process of the cluster in `dir` by its PID (SIGTERM, SIGKILL after a while); its data stays. */
async function stopCluster(options = {}) {
  const log = options.log || (() => {});
  const layout = clusterLayout(options);
  const state = readState(layout.stateFile);
  if (!state) return false;
  for (const name of STOP_ORDER) {
    const entry = state.processes[name];
    if (!entry) continue;
    // PostgreSQL: SIGINT is its fast shutdown (SIGTERM would wait for every client to leave).
    if (await stopPid(entry.pid, entry.spec.match, { signal: name === 'postgres' ? 'SIGINT' : 'SIGTERM' })) log(`stopped ${name} (pid ${entry.pid})`);
  }
  fs.rmSync(layout.stateFile, { force: true });
  return true;
}

function clusterStatus(options = {}) {
  const state = readState(clusterLayout(options).stateFile);
  if (!state) return null;
  const processes = Object.fromEntries(Object.entries(state.processes).map(([name, entry]) => [name, { pid: entry.pid, running: isRunning(entry) }]));
  return { address: state.address, namespace: state.namespace, serverVersion: state.serverVersion, processes };
}

function entryOf(state, name) {
  const entry = state.processes[name];
  if (!entry) throw new Error(`the cluster has no process '${name}' (it has ${Object.keys(state.processes).join(', ')})`);
  return entry;
}

/** SIGKILLs one process of the cluster (e.g. 'history-1'), no warning, as a crashed machine would. */
async function killProcess(options, name) {
  const state = readState(clusterLayout(options).stateFile);
  if (!state) throw new Error('no cluster state: is the cluster running?');
  const entry = entryOf(state, name);
  if (!(await killPid(entry.pid, entry.spec.match))) throw new Error(`${name} (pid ${entry.pid}) was not running`);
  return entry.pid;
}

/** Starts one process of the cluster again, as it was started, and waits until it listens. */
async function restartProcess(options, name) {
  const layout = clusterLayout(options);
  const state = readState(layout.stateFile);
  if (!state) throw new Error('no cluster state: is the cluster running?');
  const entry = entryOf(state, name);
  if (isRunning(entry)) throw new Error(`${name} (pid ${entry.pid}) is still running`);
  state.processes[name] = { pid: spawnDetached(entry.spec), spec: entry.spec };
  writeState(layout.stateFile, state);
  await waitForPort(name, state.processes[name]);
  return state.processes[name].pid;
}

module.exports = { startCluster, stopCluster, clusterStatus, killProcess, restartProcess };
