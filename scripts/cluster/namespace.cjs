'use strict';
// The namespace and the project's search attributes, registered with the Temporal CLI's
// operator commands (what an operator of any self-hosted cluster runs once).

const { execFile } = require('node:child_process');
const { SEARCH_ATTRIBUTE_FLAGS } = require('../dev-server.cjs');
const { sleep } = require('../processes.cjs');

const RETENTION = '72h';
const NAMESPACE_CACHE_REFRESH_MS = 2000;

function cli(cliPath, address, args, timeoutMs = 20000) {
  const all = [...args, '--address', address, '--disable-config-file', '--disable-config-env', '--command-timeout', `${Math.round(timeoutMs / 1000)}s`];
  return new Promise((resolve) => {
    execFile(cliPath, all, { timeout: timeoutMs + 5000 }, (error, stdout, stderr) => resolve({ ok: !error, stdout: String(stdout), stderr: String(stderr) }));
  });
}

/** Retries `step` until it succeeds: right after start the frontend may not yet see every service. */
async function until(what, step, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const result = await step();
    if (result.ok) return result;
    last = (result.stderr || result.stdout).trim();
    if (Date.now() > deadline) throw new Error(`${what} did not succeed within ${timeoutMs / 1000} s: ${last}`);
    await sleep(1000);
  }
}

async function customAttributes(cliPath, address, namespace) {
  const result = await cli(cliPath, address, ['operator', 'search-attribute', 'list', '--namespace', namespace, '--output', 'json']);
  if (!result.ok) return null;
  try {
    return JSON.parse(result.stdout).customAttributes || {};
  } catch {
    return null;
  }
}

/** Creates the namespace unless it exists and registers whichever of the project's search attributes it lacks. */
async function ensureNamespace({ cliPath, address, namespace, log, timeoutMs = 120000 }) {
  await until('the cluster health check', () => cli(cliPath, address, ['operator', 'cluster', 'health']), timeoutMs);
  const described = await cli(cliPath, address, ['operator', 'namespace', 'describe', '--namespace', namespace]);
  if (!described.ok) {
    await until(`creating namespace ${namespace}`, async () => {
      const created = await cli(cliPath, address, ['operator', 'namespace', 'create', '--namespace', namespace, '--retention', RETENTION]);
      return created.ok || /already (exists|registered)/i.test(created.stderr) ? { ok: true } : created;
    }, timeoutMs);
    log(`namespace ${namespace} created (retention ${RETENTION})`);
  }
  const known = (await until('listing search attributes', async () => {
    const attributes = await customAttributes(cliPath, address, namespace);
    return attributes ? { ok: true, attributes } : { ok: false, stderr: 'no answer' };
  }, timeoutMs)).attributes;
  let registered = false;
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) {
    const [name, type] = flag.split('=');
    if (name in known) continue;
    // One attribute per call: given several --name flags, CLI 1.9.1 registers only the first.
    const args = ['operator', 'search-attribute', 'create', '--namespace', namespace, '--name', name, '--type', type];
    await until(`registering ${name}`, () => cli(cliPath, address, args), timeoutMs);
    log(`search attribute registered: ${name} (${type})`);
    registered = true;
  }
  if (registered) await untilUsable(cliPath, address, namespace, timeoutMs);
}

/**
 * Each process learns a namespace's search attributes from its namespace cache, refreshed every
 * 2 s (system.namespaceCacheRefreshInterval): until then it refuses runs that set them. A query by
 * all of them answers once the frontend knows them; the history processes refresh on the same clock.
 */
async function untilUsable(cliPath, address, namespace, timeoutMs) {
  const query = SEARCH_ATTRIBUTE_FLAGS.map((flag) => (flag.endsWith('=Int') ? `${flag.split('=')[0]} = 0` : `${flag.split('=')[0]} = ''`)).join(' OR ');
  await until('a query by the search attributes', () => cli(cliPath, address, ['workflow', 'count', '--namespace', namespace, '--query', query]), timeoutMs);
  await sleep(NAMESPACE_CACHE_REFRESH_MS * 2);
}

module.exports = { ensureNamespace, customAttributes, RETENTION };
