import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { relativeLinks } from '../docs/links';
import { RELEASED_MAIN_EXPORTS } from './released-exports';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import { testAddress, testNamespace, uniqueTaskQueue } from '../helpers/temporal-env';
import { createConsumerProject, packRepository, type PackedPackage } from './consumer-project';
import { codeBlockAfter, shellCommandsIn } from './readme-example';
import { mustRun, runCommand, type CommandResult } from './run-command';
import { typeErrorLocations } from './type-errors';
import { waitFor } from '../helpers/wait-for';
import { findComposeCli } from '../helpers/compose-cli';
import { findFreePorts } from '../../scripts/dev-server.cjs';
import { contextFiles, copyInstructions, matchedBy } from './docker-context';
import { descendants, isRunning } from './process-tree';

/**
 * The package as a user gets it: `npm pack` (which builds dist), `npm install` of the tarball in
 * a fresh project, then ESM and CommonJS use, a strict type check, and real runs on the test
 * server from the installed files, with and without a prebuilt workflow bundle.
 */

const ROOT = resolve(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures');
const SLOW = 300_000;

let work: string;
let project: string;
let packed: PackedPackage;

/** The child's environment: none of the caller's Temporal, model or agent settings leak in. */
function consumerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEMPORAL_|OPENAI_|AGENT_)/.test(name)));
  return { ...env, TEMPORAL_TEST_ADDRESS: testAddress(), ...extra };
}

function node(args: string[], env: NodeJS.ProcessEnv = consumerEnv({})): Promise<CommandResult> {
  return runCommand(process.execPath, args, { cwd: project, env, timeoutMs: 120_000 });
}

function lastJsonLine<T>(stdout: string): T {
  const line = stdout.trim().split('\n').reverse().find((text) => text.startsWith('{'));
  if (!line) throw new Error(`no JSON line in:\n${stdout}`);
  return JSON.parse(line) as T;
}

function writeTsconfig(name: string, files: string[], extra: Record<string, unknown> = {}): void {
  writeFileSync(join(project, name), JSON.stringify({ extends: './tsconfig.base.json', compilerOptions: extra, files }));
}

/** The main entry stays a narrow door: what a first agent needs; the rest is in the subpaths. */
const MAIN_ENTRY_LIMIT = 50;
/** The values (not types) of the main entry, sorted. */
const MAIN_ENTRY_VALUES = [
  'AgentClient', 'AgentRun', 'ApplicationFailure', 'CancelledFailure', 'FailureTypes', 'RetryableToolError', 'RunRequestRejectedError',
  'StartInputTooLargeError', 'TemporalConnectionError', 'TerminatedFailure', 'TimeoutFailure', 'WorkflowFailedError', 'agentTool',
  'bundleAgentWorkflows', 'createWorker', 'defineAgent', 'defineEvalCase', 'defineEvalSuite', 'defineTool', 'harnessTools',
];

type ExportedNames = { names: string[]; entries: Record<string, { import: string[]; require: string[] }> };
let exportedNames: Promise<ExportedNames> | undefined;

/** Every name each entry exports, as TypeScript sees the installed declarations (fixtures/exported-names.cjs). */
function exportedNamesOnce(): Promise<ExportedNames> {
  exportedNames ??= (async () => {
    const probe = await node(['exported-names.cjs']);
    if (probe.stderr !== '') throw new Error(probe.stderr);
    return lastJsonLine<ExportedNames>(probe.stdout);
  })();
  return exportedNames;
}

let typeCheck: Promise<{ api: string[]; temporalOnly: string[]; output: string }> | undefined;

/** tsc over the user's files (emitting them to out/) and over a project that uses Temporal's client alone. */
function typeCheckOnce(): Promise<{ api: string[]; temporalOnly: string[]; output: string }> {
  typeCheck ??= (async () => {
    writeTsconfig('tsconfig.api.json', ['public-api.mts', 'public-api.cts', 'public-entries.mts', 'first-agent.mts', 'agents.ts']);
    writeTsconfig('tsconfig.temporal-only.json', ['temporal-only.mts'], { noEmit: true });
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const [api, temporalOnly] = await Promise.all([node([tsc, '-p', 'tsconfig.api.json']), node([tsc, '-p', 'tsconfig.temporal-only.json'])]);
    return { api: typeErrorLocations(api.stdout), temporalOnly: typeErrorLocations(temporalOnly.stdout), output: api.stdout };
  })();
  return typeCheck;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'durable-agent-package-'));
  packed = await packRepository(work);
  project = join(work, 'consumer');
  await createConsumerProject(project, packed.tarball);
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(project, file));
  // The README's first agent (an agents module) and the guide's one-program example, as they are shown.
  writeFileSync(join(project, 'agents.ts'), codeBlockAfter(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## A first agent'));
  writeFileSync(join(project, 'first-agent.mts'), codeBlockAfter(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8'), '## One program: a worker and a client'));
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  test('holds the compiled build, the bin, the dev-server scripts, the project template, the README, the guides, the changelog and package.json, and nothing else', () => {
    const allowed = /^(dist\/.+\.(js|mjs|d\.ts|d\.mts|js\.map)|bin\/durable-agent\.cjs|scripts\/(dev-server|processes|temporal-cli)\.cjs|templates\/project\/.+|docs\/[\w-]+\.md|docs\/images\/[\w-]+\.png|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/;
    expect(packed.files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(packed.files.filter((file) => /(^|\/)(tests?|fixtures|bench|\.ci)\//.test(file) && !file.startsWith('templates/project/test/'))).toEqual([]);
    expect(packed.files).toEqual(expect.arrayContaining(['templates/project/agents.ts', 'templates/project/test/agents.test.ts', 'templates/project/gitignore', 'templates/project/env.example']));
    const entries = ['index', ...['client', 'worker', 'testing', 'codec', 'telemetry', 'tools', 'nexus'].map((entry) => `entries/${entry}`)];
    for (const file of [...entries.flatMap((entry) => ['js', 'mjs', 'd.ts', 'd.mts'].map((ext) => `dist/${entry}.${ext}`)), 'dist/workflows/index.js', 'dist/cli/main.js']) {
      expect(packed.files).toContain(file);
    }
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'durable-agent', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    // tsx runs a TypeScript agents module (`durable-agent worker --module agents.ts`); the compiler itself stays out.
    expect(Object.keys(manifest.dependencies)).toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('typescript');
  });

  test('is ready to publish: not private, with its repository, homepage, issues and license, and every relative link of its README and guides resolves inside it', async () => {
    const installed = join(project, 'node_modules', 'durable-agent');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest).toMatchObject({ license: 'MIT', repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\//) }, homepage: expect.stringMatching(/^https:\/\//), bugs: { url: expect.stringMatching(/^https:\/\//) } });
    const markdown = ['README.md', 'CHANGELOG.md', ...readdirSync(join(installed, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
    const broken = markdown.flatMap((file) =>
      relativeLinks(file, readFileSync(join(installed, file), 'utf8')).flatMap((link) => {
        const target = link.target.split('#')[0]!;
        return target && !existsSync(join(installed, dirname(file), target)) ? [`${file}:${link.line} → ${link.target}`] : [];
      }),
    );
    expect(broken).toEqual([]);
    expect(markdown.length).toBeGreaterThan(20);
    // What `npm publish` would send, checked by npm itself (nothing is sent).
    const dryRun = await runCommand('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', packed.tarball], { cwd: work, timeoutMs: 120_000 });
    expect({ code: dryRun.code, stderr: dryRun.code === 0 ? '' : dryRun.stderr }).toEqual({ code: 0, stderr: '' });
    const published = JSON.parse(dryRun.stdout.slice(dryRun.stdout.indexOf('{'))) as Record<string, unknown>;
    // npm 11 keys its report by the package's name; npm 10 gives the report itself.
    expect(published['durable-agent'] ?? published).toMatchObject({ name: 'durable-agent', version: expect.any(String) });
  });

  test("the changelog has this version's section, and names every name an earlier release's main entry exported that this one does not", async () => {
    const installed = join(project, 'node_modules', 'durable-agent');
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    const changelog = readFileSync(join(installed, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## ${version.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`, 'm'));
    const { names } = await exportedNamesOnce();
    expect(names).toEqual(expect.arrayContaining(['AgentClient', 'defineAgent', 'AgentRunState']));
    const exported = new Set(names);
    const unexplained = Object.entries(RELEASED_MAIN_EXPORTS).flatMap(([release, released]) =>
      released.filter((name) => !exported.has(name) && !changelog.includes(`\`${name}\``)).map((name) => `${name} (exported by ${release})`),
    );
    expect(unexplained).toEqual([]);
  });

  test(`the main entry is a narrow door: at most ${MAIN_ENTRY_LIMIT} names (values and types), the ones a first agent needs`, async () => {
    const { names } = await exportedNamesOnce();
    expect(names.length).toBeLessThanOrEqual(MAIN_ENTRY_LIMIT);
    expect(names).toEqual(expect.arrayContaining(['defineAgent', 'defineTool', 'AgentOptions', 'ToolOptions', 'AgentClient', 'AgentRun', 'StartOptions', 'AgentRunResult', 'PendingCall', 'createWorker', 'CreateWorkerOptions', 'WorkflowFailedError', 'FailureTypes', 'defineEvalSuite']));
    // What the guides import from a subpath is not in the main entry too.
    for (const elsewhere of ['approveSignal', 'stateQuery', 'Conversation', 'createRunStreamHandler', 'BUDGET_TOOL', 'Middleware', 'checkShellCommand', 'EvalReport']) {
      expect(names).not.toContain(elsewhere);
    }
  });

  test("no entry point exports the workflow's own call record (`ToolCallRecord`, its phase), for `import` or `require`; each entry's types name the same things both ways", async () => {
    const { entries } = await exportedNamesOnce();
    expect(Object.keys(entries)).toHaveLength(8);
    for (const [entry, { import: esm, require: cjs }] of Object.entries(entries)) {
      expect({ entry, same: esm.join() === cjs.join(), some: esm.length > 0 }).toEqual({ entry, same: true, some: true });
      for (const internal of ['ToolCallRecord', 'ToolCallPhase']) expect({ entry, exports: esm.includes(internal) }).toEqual({ entry, exports: false });
    }
  });

  test('an ES module imports the API by name: the same objects require() returns', async () => {
    const result = await node(['esm-import.mjs']);
    expect(result.stderr).toBe('');
    const seen = lastJsonLine<{ types: Record<string, string>; sameAsRequire: boolean; esmNames: string[]; cjsNames: string[]; modelBadRequest: string }>(result.stdout);
    expect(seen.types).toEqual({
      AgentClient: 'function',
      createWorker: 'function',
      defineAgent: 'function',
      defineTool: 'function',
      FailureTypes: 'object',
      RunRequestRejectedError: 'function',
      WorkflowFailedError: 'function',
    });
    expect(seen.sameAsRequire).toBe(true);
    expect(seen.esmNames).toEqual(seen.cjsNames);
    // Every value of the main entry (its types are checked by name above).
    expect(seen.esmNames).toEqual(MAIN_ENTRY_VALUES);
    expect(seen.modelBadRequest).toBe('Model.BadRequest');
  });

  test('every entry point (., ./client, ./worker, ./testing, ./codec, ./telemetry, ./tools, ./nexus) from ESM and CJS: the same names and objects', async () => {
    const result = await node(['entries.mjs']);
    expect(result.stderr).toBe('');
    const seen = lastJsonLine<Record<string, { names: string[]; sameAsRequire: boolean; cjsNames: string[] }>>(result.stdout);
    expect(Object.keys(seen)).toHaveLength(8);
    for (const [entry, { names, sameAsRequire, cjsNames }] of Object.entries(seen)) {
      expect({ entry, sameAsRequire, same: names.join() === cjsNames.join(), some: names.length > 0 }).toEqual({ entry, sameAsRequire: true, same: true, some: true });
    }
    expect(seen['durable-agent/testing']!.names).toEqual(['startScriptedModelServer', 'startTestTemporal']);
    expect(seen['durable-agent']!.names).toEqual(MAIN_ENTRY_VALUES);
    // The runtime's own protocol is not published: only the handlers a user may call by hand, from the client entry.
    expect(seen['durable-agent/client']!.names).toEqual(expect.arrayContaining(['approveSignal', 'decideUpdate', 'stateQuery', 'AgentClient', 'Conversation', 'FailureTypes']));
    expect(seen['durable-agent/tools']!.names).toEqual(expect.arrayContaining(['checkShellCommand', 'evaluatePermission', 'callCost', 'FINAL_ANSWER_TOOL', 'DEFAULT_MAX_AGENT_DEPTH', 'nexusTool', 'a2aAgent']));
    expect(seen['durable-agent/nexus']!.names).toEqual(['DEFAULT_AGENT_NEXUS_SERVICE', 'agentNexusService']);
    for (const [entry, { names }] of Object.entries(seen)) {
      for (const internal of ['subAgentWaitingSignal', 'conversationPageQuery', 'conversationQuery', 'runCli']) expect({ entry, exports: names.includes(internal) }).toEqual({ entry, exports: false });
    }
  });

  test('the client entry alone loads no worker, webpack, MCP or OpenTelemetry code', async () => {
    const result = await node(['client-only.cjs']);
    expect(result.stderr).toBe('');
    expect(lastJsonLine(result.stdout)).toMatchObject({ AgentClient: 'function', heavy: [] });
  });

  test('a CommonJS module requires the API', async () => {
    const result = await node(['cjs-require.cjs']);
    expect(result.stderr).toBe('');
    expect(lastJsonLine(result.stdout)).toEqual({
      types: ['function', 'function', 'function', 'function', 'function'],
      agent: 'echoer',
      tools: ['echo'],
      modelBadRequest: 'Model.BadRequest',
    });
  });

  test("the user's `zod` is the package's zod 3: one copy, hoisted next to it", () => {
    const fromProject = require.resolve('zod', { paths: [project] });
    const fromPackage = require.resolve('zod', { paths: [join(project, 'node_modules', 'durable-agent', 'dist')] });
    expect(fromProject).toBe(fromPackage);
    const zod = JSON.parse(readFileSync(join(project, 'node_modules', 'zod', 'package.json'), 'utf8')) as { version: string };
    expect(zod.version).toMatch(/^3\./);
  });

  test(
    'TypeScript (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off, node16) finds nothing in our declarations or the documented examples',
    async () => {
      const { api, temporalOnly, output } = await typeCheckOnce();
      // Temporal's own declarations have errors under these settings in any project that uses them
      // (see docs/library.md): the same ones appear here, and nothing else.
      const ours = api.filter((location) => !location.startsWith('node_modules/@temporalio/'));
      expect(ours.length === 0 ? '' : output).toBe('');
      expect(api).toEqual(temporalOnly);
    },
    SLOW,
  );
});

describe('a worker from the installed package', () => {
  test(
    'completes a run, bundling the workflow code at start',
    async () => {
      const result = await node(['run-agent.mjs'], consumerEnv({ TASK_QUEUE: uniqueTaskQueue('package') }));
      expect(result.code).toBe(0);
      expect(lastJsonLine(result.stdout)).toMatchObject({ status: 'completed', output: 'The sum is 5.', iterations: 2 });
      expect(result.stderr).toContain('Workflow bundle created');
      expect(result.stderr).not.toMatch(/webpack [\d.]+ compiled/);
    },
    SLOW,
  );

  test(
    'completes a run from a bundle made by the installed `durable-agent bundle`, without webpack, MCP or OpenTelemetry code',
    async () => {
      const bin = join(project, 'node_modules', '.bin', 'durable-agent');
      const made = JSON.parse(await mustRun(bin, ['bundle', '--out', 'build/workflow-bundle.js', '--json'], { cwd: project, env: consumerEnv({}) })) as {
        codePath: string;
        bytes: number;
      };
      expect(made.codePath).toBe(join(project, 'build', 'workflow-bundle.js'));
      expect(existsSync(made.codePath)).toBe(true);
      const result = await node(['run-agent.mjs'], consumerEnv({ TASK_QUEUE: uniqueTaskQueue('package-bundle'), WORKFLOW_BUNDLE: made.codePath }));
      expect(result.code).toBe(0);
      // Without MCP servers or tracing, the worker loads neither the MCP SDK and ajv nor OpenTelemetry's SDK (13 MiB of heap at rest).
      expect(lastJsonLine(result.stdout)).toMatchObject({ status: 'completed', output: 'The sum is 5.', iterations: 2, unused: [] });
      expect(result.stderr).not.toMatch(/webpack/);
    },
    SLOW,
  );

  test(
    "runs the one-program example of docs/library.md verbatim: a tool call, an approved refund, the answer",
    async () => {
      const { output } = await typeCheckOnce();
      expect(existsSync(join(project, 'out', 'first-agent.mjs'))).toBe(true);
      const model = await startScriptedModelServer({
        script: [
          { toolCalls: [{ name: 'track_logistics', arguments: { order_id: 'ORD-2024-001' } }] },
          { toolCalls: [{ name: 'request_refund', arguments: { order_id: 'ORD-2024-001', reason: 'late' } }] },
          'It is in transit, arriving tomorrow; the refund is requested.',
        ],
      });
      try {
        const env = consumerEnv({
          TEMPORAL_ADDRESS: testAddress(),
          TEMPORAL_NAMESPACE: testNamespace(),
          TEMPORAL_TASK_QUEUE: uniqueTaskQueue('package-readme'),
          OPENAI_BASE_URL: model.baseURL,
        });
        const result = await node([join('out', 'first-agent.mjs')], env);
        expect(result.code === 0 ? '' : `${result.stderr}\n--- tsc\n${output}`).toBe('');
        const lines = result.stdout.trim().split('\n');
        expect(lines).toContain('permission_requested');
        expect(lines.at(-1)).toMatch(/^completed 3 \d+ It is in transit, arriving tomorrow; the refund is requested\.$/);
        const toolResults = JSON.stringify(model.requests.at(-1)?.body.messages ?? []);
        expect(toolResults).toContain('in transit, arriving tomorrow');
        expect(toolResults).toMatch(/Refund of ORD-2024-001 for u-1001 requested \(key ecommerce-cs-\S+:\S+\)/);
      } finally {
        await model.close();
      }
    },
    SLOW,
  );
});

describe("the README's first agent, from the installed package", () => {
  test(
    'its commands as shown: `npx durable-agent worker --module ./agents.ts` serves it, `npx durable-agent start … --watch` follows the run to its answer once the refund is approved',
    async () => {
      const commands = shellCommandsIn(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## A first agent');
      const workerCommand = commands.find((line) => line.startsWith('npx durable-agent worker '));
      const startCommand = commands.find((line) => line.startsWith('npx durable-agent start ') && line.includes('--watch'));
      expect({ workerCommand, startCommand }).toEqual({ workerCommand: expect.any(String), startCommand: expect.any(String) });
      const model = await startScriptedModelServer({
        script: [
          { toolCalls: [{ name: 'track_logistics', arguments: { order_id: 'ORD-2024-001' } }] },
          { toolCalls: [{ name: 'request_refund', arguments: { order_id: 'ORD-2024-001', reason: 'late' } }] },
          'It is in transit, arriving tomorrow; the refund is requested.',
        ],
      });
      const env = consumerEnv({
        TEMPORAL_ADDRESS: testAddress(),
        TEMPORAL_NAMESPACE: testNamespace(),
        TEMPORAL_TASK_QUEUE: uniqueTaskQueue('package-first-agent'),
        OPENAI_BASE_URL: model.baseURL,
      });
      const bin = join(project, 'node_modules', '.bin', 'durable-agent');
      // A shell runs each command as the README shows it; each gets a process group of its own, so it stops with everything it started.
      const shell = (command: string) => spawn('sh', ['-c', command], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const stop = async (child: ReturnType<typeof shell>) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      };
      const worker = shell(workerCommand!);
      let workerOutput = '';
      worker.stdout!.on('data', (d) => (workerOutput += d));
      worker.stderr!.on('data', (d) => (workerOutput += d));
      let watch: ReturnType<typeof shell> | undefined;
      try {
        await waitFor(async () => (workerOutput.includes('[durable-agent] worker for support') ? true : worker.exitCode !== null ? Promise.reject(new Error(workerOutput)) : undefined), 'the worker', 120_000);
        watch = shell(startCommand!);
        let watched = '';
        watch.stdout!.on('data', (d) => (watched += d));
        watch.stderr!.on('data', (d) => (watched += d));
        const watchExit = new Promise<number | null>((resolve) => watch!.once('exit', (code) => resolve(code)));
        const workflowId = await waitFor(async () => /^Started (\S+)$/m.exec(watched)?.[1], 'the run to start');
        const pending = await waitFor(async () => {
          const listed = await runCommand(bin, ['pending', workflowId, '--json'], { cwd: project, env });
          return listed.code === 0 ? (JSON.parse(listed.stdout) as { calls: Array<{ callId: string; tool: string }> }).calls[0] : undefined;
        }, 'the refund to wait', 60_000);
        expect(pending.tool).toBe('request_refund');
        await mustRun(bin, ['approve', workflowId, pending.callId], { cwd: project, env });
        expect({ code: await watchExit, watched }).toEqual({ code: 0, watched: expect.stringContaining('It is in transit, arriving tomorrow; the refund is requested.') });
        // The watch showed the command that approves it, as the README says.
        expect(watched).toContain(`approve ${workflowId} ${pending.callId}`);
        const toolResults = JSON.stringify(model.requests.at(-1)?.body.messages ?? []);
        expect(toolResults).toContain('in transit, arriving tomorrow');
        expect(toolResults).toMatch(/Refund of ORD-2024-001 for u-1001 requested \(key support-\S+:\S+\)/);
      } finally {
        if (watch) await stop(watch);
        await stop(worker);
        await model.close();
      }
    },
    SLOW,
  );
});

describe('durable-agent init, from the installed package', () => {
  let app: string;
  const bin = () => join(app, 'node_modules', '.bin', 'durable-agent');

  beforeAll(async () => {
    app = join(work, 'new-project');
    await mustRun(join(project, 'node_modules', '.bin', 'durable-agent'), ['init', app], { cwd: work, env: consumerEnv({}) });
    // The scaffold names durable-agent as it was installed where init ran: the packed tarball, so `npm install` is all.
    await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, timeoutMs: 300_000 });
  }, 600_000);

  test('writes the project, and refuses to write over it', async () => {
    const files = ['package.json', 'agents.ts', 'client.ts', 'model-script.ts', 'test/agents.test.ts', 'tsconfig.json', 'Dockerfile', 'docker-compose.yml', '.env.example', '.gitignore', '.dockerignore', 'README.md'];
    for (const file of files) expect({ file, exists: existsSync(join(app, file)) }).toEqual({ file, exists: true });
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(manifest.name).toBe('new-project');
    // The tarball it was installed from is copied in: `docker build` sees only the project.
    expect(manifest.dependencies['durable-agent']).toBe(`file:${basename(packed.tarball)}`);
    expect(readFileSync(join(app, basename(packed.tarball)))).toEqual(readFileSync(packed.tarball));
    expect(readFileSync(join(app, 'agents.ts'), 'utf8')).toContain("export const taskQueue = 'new-project';")
    expect(readFileSync(join(app, 'Dockerfile'), 'utf8')).toContain('npm install --omit=dev');
    const again = await runCommand(bin(), ['init', app], { cwd: work, env: consumerEnv({}) });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('nothing was written');
  });

  test('in the folder where `npm install` of the package just ran: the project is written around it', async () => {
    const here = join(work, 'installed-first');
    mkdirSync(here);
    await mustRun('npm', ['init', '-y'], { cwd: here });
    await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', packed.tarball], { cwd: here, timeoutMs: 300_000 });
    const installed = (JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['durable-agent'];
    await mustRun(join(here, 'node_modules', '.bin', 'durable-agent'), ['init', '.'], { cwd: here, env: consumerEnv({}) });
    const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string> };
    // npm named the tarball outside the folder; the copy inside it is what `docker build` installs.
    expect(installed).toBe(`file:${relative(here, packed.tarball)}`);
    expect(manifest).toMatchObject({ name: 'installed-first', scripts: { worker: 'durable-agent worker --module ./agents.ts' }, dependencies: { 'durable-agent': `file:${basename(packed.tarball)}`, zod: expect.any(String) } });
    expect(existsSync(join(here, basename(packed.tarball)))).toBe(true);
    expect(existsSync(join(here, 'agents.ts'))).toBe(true);
  }, SLOW);

  test('its own test passes: the agents against the scripted model, on a dev server of its own', async () => {
    const result = await runCommand('npm', ['test'], { cwd: app, env: consumerEnv({ TEMPORAL_CLI: process.env.TEMPORAL_TEST_CLI ?? '' }), timeoutMs: 300_000 });
    expect(result.code === 0 ? '' : `${result.stdout}\n${result.stderr}`).toBe('');
    expect(result.stdout).toMatch(/# pass 1\b/);
    const typecheck = await runCommand('npm', ['run', 'typecheck'], { cwd: app, env: consumerEnv({}) });
    expect(typecheck.code === 0 ? '' : `${typecheck.stdout}\n${typecheck.stderr}`).toBe('');
  }, SLOW);

  test('`durable-agent worker --module ./agents.ts` serves a run started by `durable-agent start`, approved by `durable-agent approve`', async () => {
    const model = await startScriptedModelServer({
      script: [
        { toolCalls: [{ name: 'refund', arguments: { order_id: 'A-7', amount: 7 } }] },
        'Refunded 7 on A-7.',
      ],
    });
    const taskQueue = uniqueTaskQueue('init-worker');
    const env = consumerEnv({ TEMPORAL_ADDRESS: testAddress(), TEMPORAL_NAMESPACE: testNamespace(), TEMPORAL_TASK_QUEUE: taskQueue, OPENAI_BASE_URL: model.baseURL, AGENT_MODEL: 'scripted-model' });
    const worker = spawn(bin(), ['worker', '--module', './agents.ts'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      worker.stdout!.on('data', (d) => (output += d));
      worker.stderr!.on('data', (d) => (output += d));
      await waitFor(async () => (output.includes('[durable-agent] worker for support') ? true : worker.exitCode !== null ? Promise.reject(new Error(output)) : undefined), 'the worker', 120_000);
      const started = JSON.parse(await mustRun(bin(), ['start', '--agent', 'support', '--prompt', 'Refund A-7', '--json'], { cwd: app, env })) as { workflowId: string };
      const pending = await waitFor(async () => {
        const listed = await runCommand(bin(), ['pending', started.workflowId, '--json'], { cwd: app, env });
        return listed.code === 0 ? (JSON.parse(listed.stdout) as { calls: Array<{ callId: string; tool: string }> }).calls[0] : undefined;
      }, 'the refund to wait');
      expect(pending.tool).toBe('refund');
      await mustRun(bin(), ['approve', started.workflowId, pending.callId], { cwd: app, env });
      const result = JSON.parse(await mustRun(bin(), ['result', started.workflowId, '--wait', '--json'], { cwd: app, env })) as { output: string };
      expect(result.output).toBe('Refunded 7 on A-7.');
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));
      await model.close();
    }
  }, SLOW);

  test('its Dockerfile builds from the project alone: every COPY copies from the build context, the package tarball before `npm install`; `docker compose config` takes the compose file', () => {
    const dockerfile = readFileSync(join(app, 'Dockerfile'), 'utf8');
    const files = contextFiles(app);
    const copies = copyInstructions(dockerfile);
    // A glob that matches nothing is allowed beside a source that matches: each COPY must copy something.
    for (const copy of copies) expect({ copy, copies: copy.sources.flatMap((source) => matchedBy(source, files)).length > 0 }).toEqual({ copy, copies: true });
    const install = dockerfile.split('\n').findIndex((line) => /^RUN npm (install|ci)\b/.test(line)) + 1;
    const spec = (JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['durable-agent']!;
    const tarball = relative(app, resolve(app, spec.slice('file:'.length)));
    const beforeInstall = copies.filter((copy) => copy.line < install).flatMap((copy) => copy.sources.flatMap((source) => matchedBy(source, files)));
    expect(beforeInstall).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', tarball]));
    const compose = findComposeCli();
    if ('skip' in compose) return console.warn(`docker compose config of the scaffold SKIPPED because ${compose.skip}`);
    const config = spawnSync(compose.command, [...compose.prefix, 'config', '--format', 'json'], { cwd: app, encoding: 'utf8', env: consumerEnv({}), timeout: 60_000 });
    expect(config.status === 0 ? '' : `${config.stderr}${config.error ?? ''}`).toBe('');
    const services = (JSON.parse(config.stdout) as { services: Record<string, { build?: { context: string; dockerfile?: string } }> }).services;
    expect(services.worker?.build).toMatchObject({ context: app, dockerfile: 'Dockerfile' });
  });

  test('a refused connection suggests what the project has: `npm run dev` where init wrote it, the Temporal CLI elsewhere; never `npm start`', async () => {
    const inApp = await runCommand(bin(), ['list', '--address', '127.0.0.1:1'], { cwd: app, env: consumerEnv({}) });
    expect({ code: inApp.code, stderr: inApp.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('Start a server (`npm run dev` or `temporal server start-dev`), or set the address') });
    const elsewhere = await runCommand(join(project, 'node_modules', '.bin', 'durable-agent'), ['list', '--address', '127.0.0.1:1'], { cwd: project, env: consumerEnv({}) });
    expect({ code: elsewhere.code, stderr: elsewhere.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('Start a server (`temporal server start-dev`), or set the address') });
    for (const stderr of [inApp.stderr, elsewhere.stderr]) expect(stderr).not.toContain('npm start');
  });

  test(
    '`npm run dev` with no key: a dev server from the Temporal CLI, the worker and client.ts, answered by the scripted model; Ctrl-C ends every process it started',
    async () => {
      const [port, uiPort] = await findFreePorts(2);
      const env = consumerEnv({ TEMPORAL_CLI: process.env.TEMPORAL_TEST_CLI ?? '' });
      // A process group of its own, as a terminal gives it.
      const dev = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--ui-port', String(uiPort)], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let output = '';
      dev.stdout!.on('data', (d) => (output += d));
      dev.stderr!.on('data', (d) => (output += d));
      const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
      try {
        await waitFor(async () => (output.includes('./client.ts exited with') ? true : dev.exitCode !== null ? Promise.reject(new Error(output)) : undefined), 'client.ts to end', 240_000);
        expect(output).toContain('[dev] Model: the scripted model of ./model-script.ts');
        expect(output).toContain(`[dev] Starting a Temporal dev server (${env.TEMPORAL_CLI || ''}`);
        expect(output).toContain('Order A-1001 is shipped, arriving tomorrow.');
        expect(output).toContain('./client.ts exited with 0.');
        const server = Number(/Temporal dev server ready at 127\.0\.0\.1:\d+.*\(pid (\d+)\)/.exec(output)?.[1]);
        const client = Number(/Running \.\/client\.ts \(pid (\d+)\)/.exec(output)?.[1]);
        expect({ server: isRunning(server), client: isRunning(client) }).toEqual({ server: true, client: false });
        // Ctrl-C to the dev command alone, so what it started ends because it ends it.
        const command = descendants(dev.pid!).find((process) => /^\S*node\S* \S*durable-agent dev /.test(process.args));
        expect(command).toBeDefined();
        process.kill(command!.pid, 'SIGINT');
        expect(await exited).toBe(0);
        expect(output).toContain('[dev] Stopped the worker.');
        expect(output).toContain(`[dev] Stopped the Temporal dev server (pid ${server}).`);
        expect(isRunning(server)).toBe(false);
        const groupGone = () => {
          try {
            process.kill(-dev.pid!, 0);
            return undefined;
          } catch {
            return true;
          }
        };
        await waitFor(async () => groupGone(), 'every process of the group to end', 10_000);
      } finally {
        if (dev.exitCode === null && dev.signalCode === null) {
          process.kill(-dev.pid!, 'SIGKILL');
          await exited;
        }
      }
    },
    SLOW,
  );
});
