'use strict';
// The state file of a running cluster: every process's PID and how to start it again, so
// `npm run cluster -- stop`, a test that kills and restarts a process, or the bench, in any
// process, can find them.

const fs = require('node:fs');

function readState(stateFile) {
  try {
    return JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw new Error(`cannot read the cluster state ${stateFile}: ${error.message}`);
  }
}

function writeState(stateFile, state) {
  const scratch = `${stateFile}.${process.pid}`;
  fs.writeFileSync(scratch, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(scratch, stateFile);
}

module.exports = { readState, writeState };
