'use strict';
// `npm run cluster [-- start | stop | status] [--dir DIR] [--port-offset N]`: a Temporal cluster
// on PostgreSQL with every service a process of its own (docs/production-cluster.md).
// Node built-ins only.

const { parseArgs } = require('node:util');
const { DEFAULT_DIR, DEFAULT_OFFSET, ROOT, parseOffset } = require('./cluster/layout.cjs');
const { ensureServerTools } = require('./cluster/server-build.cjs');
const { clusterStatus, startCluster, stopCluster } = require('./cluster/cluster.cjs');

const USAGE = `npm run cluster -- [start | stop | status | build] [--dir DIR] [--port-offset N]

start (the default)  builds Temporal server 1.32.2 into .tools/ once, creates PostgreSQL's data
                     folder and the schemas on the first start, starts PostgreSQL, one frontend,
                     two history, two matching and one worker service, each a process of its own,
                     creates the namespace 'default' with the project's search attributes, and
                     prints the address. Starts whatever of the cluster is not running.
stop                 stops every process of the cluster by its PID (the data stays; remove the
                     folder for a new cluster).
status               each process's PID and whether it runs.
build                only builds the server and its schema tool into .tools/ (when missing).

--dir DIR            the cluster's folder (default .temporal-cluster; env TEMPORAL_CLUSTER_DIR)
--port-offset N      added to Temporal's usual ports (default ${DEFAULT_OFFSET}: frontend 17233, PostgreSQL 15432;
                     env TEMPORAL_CLUSTER_PORT_OFFSET); membership ports stay below 32768`;

const log = (message) => console.log(`[cluster] ${message}`);

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { dir: { type: 'string' }, 'port-offset': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0] || 'start';
  if (values.help || !['start', 'stop', 'status', 'build'].includes(command) || positionals.length > 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const options = {
    dir: values.dir || process.env.TEMPORAL_CLUSTER_DIR || DEFAULT_DIR,
    offset: parseOffset(values['port-offset'] ?? process.env.TEMPORAL_CLUSTER_PORT_OFFSET),
    log,
  };
  if (command === 'build') {
    const tools = ensureServerTools({ root: ROOT, log });
    log(`${tools.server}\n[cluster] ${tools.sqlTool}`);
    return 0;
  }
  if (command === 'stop') {
    if (!(await stopCluster(options))) log(`no cluster state in ${options.dir}: nothing to stop`);
    return 0;
  }
  if (command === 'status') {
    const status = clusterStatus(options);
    if (!status) {
      log(`no cluster in ${options.dir}`);
      return 1;
    }
    console.log(JSON.stringify(status, null, 2));
    return Object.values(status.processes).every((p) => p.running) ? 0 : 1;
  }
  const state = await startCluster(options);
  log(`Temporal ${state.serverVersion} cluster ready: ${Object.entries(state.processes).map(([name, p]) => `${name} ${p.pid}`).join(', ')}`);
  log(`address ${state.address}, namespace ${state.namespace}; stop with: npm run cluster -- stop${values.dir ? ` --dir ${values.dir}` : ''}`);
  console.log(`TEMPORAL_ADDRESS=${state.address}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[cluster] ${error.message}`);
    process.exit(1);
  },
);
