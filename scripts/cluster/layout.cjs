'use strict';
// Where everything of one cluster lives: its folder, its processes and their ports. The ports
// are Temporal's usual ones moved by one offset (default 10000: the frontend on 17233).

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG_FILE = path.join(ROOT, 'config', 'temporal-cluster.yaml');
const DYNAMIC_CONFIG_FILE = path.join(ROOT, 'config', 'temporal-cluster-dynamic.yaml');
const DEFAULT_DIR = path.join(ROOT, '.temporal-cluster');
const DEFAULT_OFFSET = 10000;
// One frontend, two history, two matching, one worker service: a second history (matching)
// process takes over the shards (task-queue partitions) of one that dies.
const SERVICES = [
  { name: 'history-1', service: 'history', grpc: 7234, membership: 6934 },
  { name: 'history-2', service: 'history', grpc: 7244, membership: 6944 },
  { name: 'matching-1', service: 'matching', grpc: 7235, membership: 6935 },
  { name: 'matching-2', service: 'matching', grpc: 7245, membership: 6945 },
  { name: 'frontend', service: 'frontend', grpc: 7233, membership: 6933, http: 7243 },
  { name: 'worker', service: 'worker', grpc: 7239, membership: 6939 },
];
const POSTGRES_PORT = 5432;

function parseOffset(value) {
  const offset = value === undefined || value === '' ? DEFAULT_OFFSET : Number(value);
  const highestMembership = Math.max(...SERVICES.map((s) => s.membership)) + offset;
  if (!Number.isInteger(offset) || offset < 0 || highestMembership > 32767) {
    throw new Error(`port offset '${value}' must be a whole number from 0 to ${32767 - highestMembership + offset} (membership ports stay below 32768)`);
  }
  return offset;
}

/** Ports and paths of the cluster in `dir` with ports moved by `offset`. */
function clusterLayout({ dir = DEFAULT_DIR, offset = DEFAULT_OFFSET, shards = 4, logLevel = 'warn' } = {}) {
  const absolute = path.resolve(dir);
  const services = SERVICES.map((s) => ({
    ...s,
    grpc: s.grpc + offset,
    membership: s.membership + offset,
    ...(s.http ? { http: s.http + offset } : {}),
    log: path.join(absolute, 'logs', `${s.name}.log`),
  }));
  const frontend = services.find((s) => s.name === 'frontend');
  return {
    dir: absolute,
    offset,
    shards,
    logLevel,
    address: `127.0.0.1:${frontend.grpc}`,
    namespace: 'default',
    stateFile: path.join(absolute, 'state.json'),
    initializedFile: path.join(absolute, 'initialized'),
    dataDir: path.join(absolute, 'pgdata'),
    postgres: { port: POSTGRES_PORT + offset, log: path.join(absolute, 'logs', 'postgres.log') },
    services,
  };
}

/** The environment of one Temporal process: every section's ports, its own instance's for its service. */
function serviceEnv(layout, own, db) {
  const first = (service) => layout.services.find((s) => s.service === service);
  const env = {
    TEMPORAL_CLUSTER_PG_PORT: String(layout.postgres.port),
    TEMPORAL_CLUSTER_PG_PASSWORD: db.password,
    TEMPORAL_CLUSTER_DYNAMIC_CONFIG: DYNAMIC_CONFIG_FILE,
    TEMPORAL_CLUSTER_SHARDS: String(layout.shards),
    TEMPORAL_CLUSTER_LOG_LEVEL: layout.logLevel,
    FRONTEND_HTTP_PORT: String(first('frontend').http),
  };
  for (const service of ['frontend', 'history', 'matching', 'worker']) {
    const instance = own.service === service ? own : first(service);
    env[`${service.toUpperCase()}_GRPC_PORT`] = String(instance.grpc);
    env[`${service.toUpperCase()}_MEMBERSHIP_PORT`] = String(instance.membership);
  }
  return env;
}

module.exports = { ROOT, CONFIG_FILE, DYNAMIC_CONFIG_FILE, DEFAULT_DIR, DEFAULT_OFFSET, parseOffset, clusterLayout, serviceEnv };
