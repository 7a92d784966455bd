'use strict';
// The cluster's PostgreSQL: a data folder of its own, a server on 127.0.0.1 only, run as a
// user other than root (PostgreSQL refuses to run as root).

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { sleep } = require('../processes.cjs');

const PG_USER = 'temporal';

function hasBinaries(dir) {
  return Boolean(dir) && ['postgres', 'initdb'].every((name) => fs.existsSync(path.join(dir, name)));
}

/** The folder with postgres and initdb: TEMPORAL_CLUSTER_PG_BIN, pg_config's, Debian's newest, or the PATH's. */
function findPostgresBin() {
  const candidates = [process.env.TEMPORAL_CLUSTER_PG_BIN];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'postgres'))) candidates.push(path.dirname(fs.realpathSync(path.join(dir, 'postgres'))));
  }
  return candidates.find(hasBinaries) || null;
}

function postgresMajor(bin) {
  const out = spawnSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout || '';
  const match = /(\d+)(\.\d+)?/.exec(out);
  return match ? Number(match[1]) : 0;
}

function idOf(user, flag) {
  const result = spawnSync('id', [flag, user], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : undefined;
}

/**
 * Who runs PostgreSQL: the current user, or as root TEMPORAL_CLUSTER_PG_OS_USER, else `postgres`
 * (Debian's package creates it), else `nobody`. Returns { user, uid, gid, prefix } where
 * prefix is what to put before a command to run it as that user (setpriv execs, so the PID stays).
 */
function runAsUser() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { user: null, uid: undefined, gid: undefined, prefix: [] };
  const wanted = process.env.TEMPORAL_CLUSTER_PG_OS_USER;
  for (const user of wanted ? [wanted] : ['postgres', 'nobody']) {
    const uid = idOf(user, '-u');
    const gid = idOf(user, '-g');
    if (uid !== undefined && gid !== undefined && uid !== 0) {
      return { user, uid, gid, prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'] };
    }
  }
  throw new Error(`no user to run PostgreSQL as (tried ${wanted || 'postgres, nobody'}): PostgreSQL will not run as root`);
}

/** Fails clearly when the user PostgreSQL runs as cannot walk into `dir` (a parent folder closed to others). */
function checkReachable(dir, runAs) {
  if (!runAs.user) return;
  const [command, ...args] = [...runAs.prefix, 'test', '-x', dir];
  if (spawnSync(command, args).status !== 0) {
    throw new Error(`PostgreSQL runs as ${runAs.user}, who cannot enter ${dir}: open its parent folders to others (chmod o+x) or pick another --dir`);
  }
}

/** Creates the data folder with initdb (unless it has one already): superuser `temporal`, password auth on TCP. */
function initDataDir({ bin, dataDir, password, runAs, log }) {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  checkReachable(path.dirname(dataDir), runAs);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(path.dirname(dataDir), '.pg-password');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) {
    fs.chownSync(dataDir, runAs.uid, runAs.gid);
    fs.chownSync(pwFile, runAs.uid, runAs.gid);
  }
  try {
    const args = ['-D', dataDir, '-U', PG_USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C'];
    const [command, ...rest] = [...runAs.prefix, path.join(bin, 'initdb'), ...args];
    const result = spawnSync(command, rest, { cwd: path.dirname(dataDir), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`initdb failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
  log(`PostgreSQL data folder created: ${dataDir}${runAs.user ? ` (owned by ${runAs.user})` : ''}`);
  return true;
}

/** How to start the server (a spec for spawnDetached): 127.0.0.1 only, no Unix socket. */
function postgresSpec({ bin, dataDir, port, runAs, log }) {
  const [command, ...args] = [
    ...runAs.prefix,
    path.join(bin, 'postgres'),
    '-D', dataDir,
    '-c', 'listen_addresses=127.0.0.1',
    '-c', `port=${port}`,
    '-c', 'unix_socket_directories=',
    // Six Temporal processes, each with a pool per store.
    '-c', 'max_connections=300',
  ];
  return { command, args, cwd: path.dirname(dataDir), env: {}, log, match: path.join(bin, 'postgres') };
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** Resolves once PostgreSQL accepts connections (pg_isready where there is one). */
async function waitForPostgres({ bin, port, isUp, timeoutMs = 60000 }) {
  const pgIsReady = path.join(bin, 'pg_isready');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isUp()) throw new Error('PostgreSQL exited while starting');
    const ready = fs.existsSync(pgIsReady)
      ? spawnSync(pgIsReady, ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0
      : await accepts(port);
    if (ready) return;
    await sleep(200);
  }
  throw new Error(`PostgreSQL did not accept connections on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
}

module.exports = { PG_USER, findPostgresBin, postgresMajor, runAsUser, initDataDir, postgresSpec, waitForPostgres, accepts };
