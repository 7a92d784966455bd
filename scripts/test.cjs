'use strict';
// `npm test`: installs the dependencies if needed, type-checks, then runs jest (extra arguments
// go to jest, e.g. `npm test -- test/workflows`). The jest global setup finds or installs the
// Temporal CLI and starts the dev server. Node built-ins only: it runs before `npm install`.

const { spawnSync } = require('node:child_process');
const { ROOT, WINDOWS, binPath, ensureDependencies } = require('./ensure-dependencies.cjs');

const log = (message) => console.log(`[test] ${message}`);

function run(bin, args) {
  const result = spawnSync(binPath(bin), args, { cwd: ROOT, stdio: 'inherit', shell: WINDOWS });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function main() {
  try {
    ensureDependencies(log);
    const typecheck = run('tsc', ['--noEmit', '-p', 'tsconfig.json']);
    if (typecheck !== 0) {
      log('the type check failed');
      process.exit(typecheck);
    }
    process.exit(run('jest', process.argv.slice(2)));
  } catch (error) {
    console.error(`[test] ${error.message}`);
    process.exit(1);
  }
}

main();
