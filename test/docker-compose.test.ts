import { spawnSync } from 'node:child_process';
import { findComposeCli } from './helpers/compose-cli';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_SERVER_DYNAMIC_CONFIG, SEARCH_ATTRIBUTE_FLAGS as DEV_SERVER_FLAGS } from '../scripts/dev-server.cjs';
import { SEARCH_ATTRIBUTE_FLAGS } from '../src/common/search-attributes';

const ROOT = join(__dirname, '..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; dockerfile_inline?: string };
  profiles?: string[];
  restart?: string;
  container_name?: string;
  ports?: Array<{ target: number; published?: string; host_ip?: string }>;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[] | null;
  command?: string[] | null;
  healthcheck?: { test: string[]; interval?: string };
  volumes?: Array<{ type: string; source?: string; target: string; read_only?: boolean }>;
  configs?: Array<{ source: string; target: string }>;
}

interface ComposeProject {
  services: Record<string, ComposeService>;
  configs?: Record<string, { content?: string }>;
}

// Placeholders: `config` interpolates the environment, and real secrets must not reach test output.
const HOST_ENV = {
  OPENAI_API_KEY: 'sk-test-placeholder',
  OPENAI_BASE_URL: 'http://model.test/v1',
  AGENT_MODEL: 'test-model',
  AGENT_DEPLOYMENT_NAME: 'support-agents',
  AGENT_BUILD_ID: 'build-42',
  AGENT_VERSIONING_BEHAVIOR: 'pinned',
};

/** Every variable the compose file interpolates is set here or unset, never taken from the machine running the tests. */
function composeEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AGENT_|OPENAI_|OTEL_|TEMPORAL_|DEMO_|CODEC_)/.test(name)));
  return { ...machine, ...HOST_ENV, ...extra };
}

function composeConfig(cli: { command: string; prefix: string[] }, profiles: string[] = [], extraEnv: Record<string, string> = {}): ComposeProject {
  const profileArgs = profiles.flatMap((profile) => ['--profile', profile]);
  const result = spawnSync(cli.command, [...cli.prefix, '-f', 'docker-compose.yml', ...profileArgs, 'config', '--format', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: composeEnv(extraEnv),
    timeout: 60000,
  });
  if (result.status !== 0) throw new Error(`docker compose config failed:\n${result.stderr || result.error}`);
  return JSON.parse(result.stdout) as ComposeProject;
}

const ONE_SHOT = ['temporal-schema', 'temporal-search-attributes'];
const DEFAULT_SERVICES = ['postgres', 'temporal', 'temporal-schema', 'temporal-search-attributes', 'temporal-ui', 'worker'];

const cli = findComposeCli();
if ('skip' in cli) console.warn(`test/docker-compose.test.ts: docker compose checks SKIPPED because ${cli.skip}`);
const describeCompose = 'skip' in cli ? describe.skip : describe;
const title = 'skip' in cli ? `docker-compose.yml (skipped: ${cli.skip})` : 'docker-compose.yml';

describeCompose(title, () => {
  let project: ComposeProject;
  let services: Record<string, ComposeService>;
  let everything: Record<string, ComposeService>;
  const composeCli = cli as { command: string; prefix: string[] };
  beforeAll(() => {
    project = composeConfig(composeCli);
    services = project.services;
    everything = composeConfig(composeCli, ['*']).services;
  });

  test('the default profile: postgres, temporal, temporal-ui, the one-shot setup services and your agents worker — no demo', () => {
    expect(Object.keys(services).sort()).toEqual([...DEFAULT_SERVICES].sort());
    expect(Object.values(services).some((service) => service.environment?.AGENT_DEMO)).toBe(false);
  });

  test('optional services only in their profiles: codec-server (codec), otel-collector (telemetry), demo-worker (demo)', () => {
    expect(Object.keys(everything).sort()).toEqual([...DEFAULT_SERVICES, 'codec-server', 'demo-worker', 'otel-collector'].sort());
    expect(everything['codec-server']!.profiles).toEqual(['codec']);
    expect(everything['otel-collector']!.profiles).toEqual(['telemetry']);
    expect(everything['demo-worker']!.profiles).toEqual(['demo']);
    expect(Object.keys(composeConfig(composeCli, ['demo']).services)).toContain('demo-worker');
  });

  test('every long-running service has a health check; the one-shot ones are waited for by their clean exit', () => {
    const missing = Object.entries(everything).filter(([name, service]) => !ONE_SHOT.includes(name) && !service.healthcheck?.test?.length);
    expect(missing.map(([name]) => name)).toEqual([]);
    for (const name of ONE_SHOT) {
      expect(everything[name]!.restart).toBeUndefined();
      const waiters = Object.values(everything).filter((service) => service.depends_on?.[name]);
      expect(waiters.length).toBeGreaterThan(0);
      for (const service of waiters) expect(service.depends_on![name]!.condition).toBe('service_completed_successfully');
    }
  });

  test('temporal runs on postgres after the schema is applied, with worker deployments on, and is checked before use', () => {
    const temporal = services.temporal!;
    expect(temporal.image).toMatch(/^temporalio\/server:1\.32\./);
    expect(temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres' });
    expect(temporal.depends_on?.['temporal-schema']?.condition).toBe('service_completed_successfully');
    expect(services['temporal-schema']!.command?.join('\n')).toContain('update-schema');
    expect(temporal.healthcheck?.test).toEqual(['CMD', 'nc', '-z', '127.0.0.1', '7233']);
    expect(services['temporal-search-attributes']!.depends_on?.temporal?.condition).toBe('service_healthy');
    expect(services['temporal-search-attributes']!.command?.join('\n')).toContain('retry temporal operator cluster health');
    const dynamicConfig = project.configs?.['temporal-dynamic-config']?.content ?? '';
    expect(dynamicConfig).toMatch(/system\.enableDeploymentVersions:\n\s+- value: true/);
    // The same eager dispatch the dev server of `npm start` and the tests runs with.
    for (const setting of DEV_SERVER_DYNAMIC_CONFIG) {
      const [key, value] = setting.split('=');
      expect(dynamicConfig).toMatch(new RegExp(`${key!.replace(/\./g, '\\.')}:\\n\\s+- value: ${value}`));
    }
  });

  test('temporal-ui serves on port 8080, checked at /healthz, and can use the codec server', () => {
    const ui = services['temporal-ui']!;
    expect(ui.image).toMatch(/^temporalio\/ui:/);
    expect(ui.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(ui.environment).toHaveProperty('TEMPORAL_CODEC_ENDPOINT');
    expect(ui.ports?.map((port) => port.target)).toEqual([8080]);
    expect(ui.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:8080/healthz');
    expect(ui.depends_on?.temporal?.condition).toBe('service_healthy');
  });

  test('the registration service creates every search attribute of the project', () => {
    const register = services['temporal-search-attributes']!;
    expect(register.image).toMatch(/^temporalio\/admin-tools:/);
    const script = register.command?.join('\n') ?? '';
    expect(script).toContain('temporal operator search-attribute create');
    for (const flag of SEARCH_ATTRIBUTE_FLAGS) expect(script).toContain(flag);
  });

  test('the worker runs your agents module, mounted read-only, from the image built here, and can be scaled', () => {
    const worker = services.worker!;
    expect(worker.build?.context).toBe(ROOT);
    expect(worker.build?.dockerfile).toBe('Dockerfile');
    expect(worker.image).toBe('durable-agent-worker');
    expect(worker.command).toBeNull(); // the image's CMD: durable-agent worker
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
    expect(worker.depends_on?.['temporal-search-attributes']?.condition).toBe('service_completed_successfully');
    expect(worker.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233', AGENT_MODULE: '/app/agents/index.js', ...HOST_ENV });
    expect(worker.environment).not.toHaveProperty('AGENT_DEMO');
    expect(worker.volumes).toContainEqual(expect.objectContaining({ type: 'bind', source: join(ROOT, 'agents'), target: '/app/agents', read_only: true }));
  });

  test('AGENT_MODULE_DIR and AGENT_MODULE choose the module', () => {
    const worker = composeConfig(composeCli, [], { AGENT_MODULE_DIR: '/srv/support-agents', AGENT_MODULE: '/app/agents/dist/main.mjs' }).services.worker!;
    expect(worker.volumes).toContainEqual(expect.objectContaining({ source: '/srv/support-agents', target: '/app/agents', read_only: true }));
    expect(worker.environment?.AGENT_MODULE).toBe('/app/agents/dist/main.mjs');
  });

  test('the worker: health from its health file; exit 0 (missing configuration) is not restarted, failures are', () => {
    const worker = services.worker!;
    expect(worker.restart).toBe('on-failure');
    expect(worker.healthcheck?.test).toEqual(['CMD', 'node', 'bin/durable-agent.cjs', 'health']);
  });

  test('worker environment: connection, model, versioning, encryption and tracing variables, each read by the code', () => {
    const names = Object.keys(services.worker!.environment ?? {}).sort();
    expect(names).toEqual(
      [
        'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE',
        'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'AGENT_MODEL', 'AGENT_MODULE',
        'AGENT_DEPLOYMENT_NAME', 'AGENT_BUILD_ID', 'AGENT_VERSIONING_BEHAVIOR',
        'AGENT_ENCRYPTION_KEYS', 'OTEL_EXPORTER_OTLP_ENDPOINT',
      ].sort(),
    );
    const sources = readSources(join(ROOT, 'src'));
    // TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE are read by Temporal's own envconfig package.
    for (const name of names.filter((n) => !n.startsWith('TEMPORAL_') || n === 'TEMPORAL_TASK_QUEUE')) {
      expect({ name, read: sources.includes(name) }).toEqual({ name, read: true });
    }
  });

  test('the demo worker: the demo agents, on a task queue of its own, never in the default profile', () => {
    const demo = everything['demo-worker']!;
    expect(demo.image).toBe('durable-agent-worker');
    expect(demo.environment).toMatchObject({ AGENT_DEMO: '1', TEMPORAL_TASK_QUEUE: 'durable-agent-demo' });
    expect(demo.environment).not.toHaveProperty('AGENT_MODULE');
    expect(demo.environment?.TEMPORAL_TASK_QUEUE).not.toBe(services.worker!.environment?.TEMPORAL_TASK_QUEUE);
    expect(demo.healthcheck?.test).toEqual(['CMD', 'node', 'bin/durable-agent.cjs', 'health']);
  });

  test('the codec server runs `durable-agent codec-server` from the same image, reachable from the browser', () => {
    const codec = everything['codec-server']!;
    expect(codec.image).toBe('durable-agent-worker');
    expect(codec.command?.slice(0, 3)).toEqual(['node', 'dist/cli/main.js', 'codec-server']);
    expect(codec.command).toEqual(expect.arrayContaining(['--host', '0.0.0.0', '--port', '8888']));
    expect(codec.environment).toHaveProperty('AGENT_ENCRYPTION_KEYS');
    expect(codec.ports).toEqual([expect.objectContaining({ target: 8888, host_ip: '127.0.0.1' })]);
    expect(codec.restart).toBe('on-failure:3');
  });

  test('the OpenTelemetry collector receives OTLP and answers its health check', () => {
    const collector = everything['otel-collector']!;
    expect(collector.build?.dockerfile_inline).toMatch(/FROM otel\/opentelemetry-collector-contrib:/);
    expect(collector.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:13133/');
    const config = composeConfig(composeCli, ['telemetry']).configs?.['otel-collector-config']?.content ?? '';
    expect(config).toContain('endpoint: 0.0.0.0:4318');
    expect(config).toContain('health_check:');
    expect(collector.configs).toEqual([expect.objectContaining({ source: 'otel-collector-config' })]);
  });
});

/** The text of every TypeScript source below `dir`. */
function readSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('deployment files agree with the code', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

  test('scripts/dev-server.cjs registers the search attributes of src/common/search-attributes.ts', () => {
    expect([...DEV_SERVER_FLAGS]).toEqual(SEARCH_ATTRIBUTE_FLAGS);
  });

  test('the Dockerfile installs production dependencies and runs the compiled worker entry point', () => {
    expect(dockerfile).toMatch(/^FROM node:20-slim$/m);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toContain('npm run build');
    expect(dockerfile).toMatch(/^CMD \["node", "bin\/durable-agent\.cjs", "worker"\]$/m);
    expect(dockerfile).not.toMatch(/\btsx\b/);
  });

  test('the image starts from a workflow bundle made at build time and writes a health file', () => {
    expect(dockerfile).toContain('bundle --out dist/workflow-bundle.js');
    expect(dockerfile).toContain('AGENT_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js');
    expect(dockerfile).toMatch(/AGENT_HEALTH_FILE=\S+/);
  });

  test("an agents module under /app resolves 'durable-agent' to the image's package", () => {
    expect(dockerfile).toContain('ln -s .. node_modules/durable-agent');
  });

  test('the scripts the compose file runs exist in the sources', () => {
    for (const source of ['src/cli/commands/worker.ts', 'src/cli/commands/health.ts', 'src/cli/main.ts', 'src/cli/commands/codec-server.ts']) {
      expect({ source, exists: existsSync(join(ROOT, source)) }).toEqual({ source, exists: true });
    }
  });
});
