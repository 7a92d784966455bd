import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptedModelServer } from '../../src/testing/scripted-model-server';
import { testAddress, testNamespace, uniqueTaskQueue } from '../helpers/temporal-env';
import { createConsumerProject, packRepository, type PackedPackage } from './consumer-project';
import { codeBlockAfter } from './readme-example';
import { mustRun, runCommand, type CommandResult } from './run-command';
import { typeErrorLocations } from './type-errors';

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

let typeCheck: Promise<{ api: string[]; temporalOnly: string[]; output: string }> | undefined;

/** tsc over the user's files (emitting them to out/) and over a project that uses Temporal's client alone. */
function typeCheckOnce(): Promise<{ api: string[]; temporalOnly: string[]; output: string }> {
  typeCheck ??= (async () => {
    writeTsconfig('tsconfig.api.json', ['public-api.mts', 'public-api.cts', 'first-agent.mts']);
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
  writeFileSync(join(project, 'first-agent.mts'), codeBlockAfter(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## A first agent'));
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  test('holds the compiled build, the bin, the README and package.json, and nothing else', () => {
    const allowed = /^(dist\/.+\.(js|mjs|d\.ts|d\.mts|js\.map)|bin\/durable-agent\.cjs|README\.md|LICENSE|package\.json)$/;
    expect(packed.files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(packed.files.filter((file) => /(^|\/)(test|tests|fixtures|bench|\.ci|scripts)\//.test(file))).toEqual([]);
    for (const file of ['dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/index.d.mts', 'dist/workflows/index.js', 'dist/client/cli/main.js']) {
      expect(packed.files).toContain(file);
    }
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'durable-agent', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('typescript');
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
    expect(seen.modelBadRequest).toBe('Model.BadRequest');
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
    'TypeScript (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off, node16) finds nothing in our declarations or the README example',
    async () => {
      const { api, temporalOnly, output } = await typeCheckOnce();
      // Temporal's own declarations have errors under these settings in any project that uses them
      // (see the README): the same ones appear here, and nothing else.
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
      expect(result.stderr).toMatch(/webpack [\d.]+ compiled successfully/);
    },
    SLOW,
  );

  test(
    'completes a run from a bundle made by the installed `durable-agent bundle`, without webpack',
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
      expect(lastJsonLine(result.stdout)).toMatchObject({ status: 'completed', output: 'The sum is 5.', iterations: 2 });
      expect(result.stderr).not.toMatch(/webpack/);
    },
    SLOW,
  );

  test(
    "runs the README's first agent verbatim: a tool call, an approved refund, the answer",
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
