'use strict';
// Builds the pinned Temporal server and its schema tool from the Go module proxy into .tools/,
// once: later calls find the binaries and build nothing.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const SERVER_VERSION = 'v1.32.2';
// Server 1.32.2's go.mod asks for a newer Go than many machines have; the go command fetches it.
const GO_TOOLCHAIN = 'go1.27.3';
const PACKAGES = {
  'temporal-server': `go.temporal.io/server/cmd/server@${SERVER_VERSION}`,
  'temporal-sql-tool': `go.temporal.io/server/cmd/tools/sql@${SERVER_VERSION}`,
};

function serverToolsDir(root) {
  return path.join(root, '.tools', `temporal-server-${SERVER_VERSION}`, 'bin');
}

function serverTools(root) {
  const dir = serverToolsDir(root);
  return { server: path.join(dir, 'temporal-server'), sqlTool: path.join(dir, 'temporal-sql-tool') };
}

function haveGo() {
  return spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
}

/** Returns the paths of both binaries, building them first when either is missing. */
function ensureServerTools({ root, log = () => {} }) {
  const tools = serverTools(root);
  if (fs.existsSync(tools.server) && fs.existsSync(tools.sqlTool)) return tools;
  if (!haveGo()) throw new Error('building the Temporal server needs Go (the `go` command) on the PATH');
  // go install names each binary after its package folder (server, sql): built into a scratch
  // folder, renamed, then moved into place, so an interrupted build leaves no half of it.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-server-build-'));
  const started = Date.now();
  log(`building Temporal server ${SERVER_VERSION} and its SQL schema tool with ${GO_TOOLCHAIN} (a few minutes, once)`);
  try {
    const result = spawnSync('go', ['install', ...Object.values(PACKAGES)], {
      cwd: scratch,
      env: { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN, GOBIN: scratch, GOFLAGS: '-buildvcs=false', GO111MODULE: 'on' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) {
      const output = `${result.stdout || ''}${result.stderr || ''}`.trim().split('\n').slice(-30).join('\n');
      throw new Error(`go install of the Temporal server failed (exit ${result.status ?? result.signal}):\n${output || result.error?.message}`);
    }
    const dir = serverToolsDir(root);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, pkg] of Object.entries(PACKAGES)) {
      const built = path.join(scratch, path.basename(pkg.split('@')[0]));
      fs.copyFileSync(built, `${path.join(dir, name)}.partial`);
      fs.chmodSync(`${path.join(dir, name)}.partial`, 0o755);
      fs.renameSync(`${path.join(dir, name)}.partial`, path.join(dir, name));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  log(`built ${serverToolsDir(root)} in ${Math.round((Date.now() - started) / 1000)} s`);
  return tools;
}

module.exports = { SERVER_VERSION, GO_TOOLCHAIN, serverTools, ensureServerTools, haveGo };
