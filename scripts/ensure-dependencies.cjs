'use strict';
// Installs the npm dependencies when they are missing, so `npm start` and `npm test` work on a
// fresh clone. Node built-ins only: it runs before `npm install`.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const WINDOWS = process.platform === 'win32';

function binPath(name) {
  return path.join(ROOT, 'node_modules', '.bin', WINDOWS ? `${name}.cmd` : name);
}

function dependenciesInstalled() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules'))) return false;
  try {
    require.resolve('@temporalio/worker', { paths: [ROOT] });
    return ['tsx', 'jest', 'tsc'].every((name) => fs.existsSync(binPath(name)));
  } catch {
    return false;
  }
}

function runNpm(args, log) {
  log(`running npm ${args.join(' ')}`);
  const result = spawnSync(WINDOWS ? 'npm.cmd' : 'npm', args, { cwd: ROOT, stdio: 'inherit', shell: WINDOWS });
  return result.status === 0;
}

function ensureDependencies(log) {
  if (dependenciesInstalled()) return;
  log('dependencies are missing; installing them');
  if (runNpm(['ci'], log) || runNpm(['install'], log)) return;
  throw new Error('npm could not install the dependencies (see the output above)');
}

module.exports = { ROOT, WINDOWS, binPath, ensureDependencies };
