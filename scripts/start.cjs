'use strict';
// `npm start`: installs dependencies if needed, makes sure a Temporal CLI is at hand, then
// runs the demo (src/demo/main.ts) with tsx. Node built-ins only: it runs before `npm install`.

const path = require('node:path');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const { findTemporalCli } = require('./temporal-cli.cjs');
const { isTemporalReachable } = require('./dev-server.cjs');
const { ROOT, WINDOWS, binPath, ensureDependencies } = require('./ensure-dependencies.cjs');

const log = (message) => console.log(`[start] ${message}`);
const tsxBin = () => binPath('tsx');

const LOCAL_SERVER = '127.0.0.1:7233';

async function resolveCli() {
  if (process.env.TEMPORAL_ADDRESS) {
    log(`TEMPORAL_ADDRESS=${process.env.TEMPORAL_ADDRESS}: the demo joins that server and starts none`);
    return null;
  }
  if (await isTemporalReachable(LOCAL_SERVER, 1000)) {
    log(`a Temporal server is already running on ${LOCAL_SERVER}: the demo joins it and starts none`);
    return null;
  }
  log('looking for the Temporal CLI (it runs the local dev server)');
  const cliPath = findTemporalCli({ root: ROOT, install: true, log });
  if (cliPath) log(`Temporal CLI: ${cliPath}`);
  else log('no Temporal CLI could be found or installed; the demo will try @temporalio/testing\'s download');
  return cliPath;
}

function runDemo(cliPath) {
  const env = { ...process.env };
  if (cliPath) env.TEMPORAL_CLI = cliPath;
  const child = spawn(tsxBin(), [path.join('src', 'demo', 'main.ts'), ...process.argv.slice(2)], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
    shell: WINDOWS,
  });
  // Ctrl-C in a terminal reaches the whole foreground process group, the demo included, so
  // SIGINT is forwarded only when it cannot have come from a terminal; SIGTERM always is.
  const forward = (signal) => {
    if (signal === 'SIGINT' && process.stdin.isTTY) return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('error', (error) => {
    console.error(`[start] could not run ${tsxBin()}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(signal ? 128 + (constants.signals[signal] || 1) : code ?? 1);
  });
}

async function main() {
  try {
    ensureDependencies(log);
    runDemo(await resolveCli());
  } catch (error) {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
}

main();
