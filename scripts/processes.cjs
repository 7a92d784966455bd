'use strict';
// Processes the scripts start and stop by PID: the dev server's, and the cluster's (started
// detached, so they outlive `npm run cluster`). Node built-ins only.

const fs = require('node:fs');
const { spawn } = require('node:child_process');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** True when `pid` still runs `command`: a PID from an old state file may belong to another program by now. */
function runs(pid, command) {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(command);
  } catch {
    return process.platform !== 'linux';
  }
}

async function waitUntilGone(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Spawns `spec` ({ command, args, env, cwd, log }) in a process group of its own, output
 * appended to its log file, and returns its PID without waiting for it.
 */
function spawnDetached(spec) {
  const out = fs.openSync(spec.log, 'a');
  try {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', out, out],
      detached: true,
    });
    child.unref();
    if (!child.pid) throw new Error(`could not start ${spec.command}`);
    return child.pid;
  } finally {
    fs.closeSync(out);
  }
}

/** Sends `signal`, then SIGKILL after `timeoutMs`; false when `pid` no longer ran `command`. */
async function stopPid(pid, command, options) {
  if (!runs(pid, command)) return false;
  return terminate(pid, options);
}

/** Sends `signal` to a process the caller knows is its own, then SIGKILL after `timeoutMs`; false when it was gone already. */
async function terminate(pid, { signal = 'SIGTERM', timeoutMs = 15000 } = {}) {
  try {
    process.kill(pid, signal);
  } catch {
    return false;
  }
  if (await waitUntilGone(pid, timeoutMs)) return true;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
  await waitUntilGone(pid, 5000);
  return true;
}

/** SIGKILL, no warning: what a crashed machine does to a process. */
async function killPid(pid, command) {
  if (!runs(pid, command)) return false;
  process.kill(pid, 'SIGKILL');
  await waitUntilGone(pid, 10000);
  return true;
}

function readTail(file, lines = 30) {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    // Temporal logs a stack trace inside each JSON line: the start of the line says what failed.
    return text ? text.split('\n').slice(-lines).map((line) => (line.length > 600 ? `${line.slice(0, 600)}…` : line)).join('\n') : '(no output)';
  } catch {
    return '(no output)';
  }
}

module.exports = { sleep, isAlive, runs, spawnDetached, stopPid, terminate, killPid, waitUntilGone, readTail };
