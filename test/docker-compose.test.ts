import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEARCH_ATTRIBUTE_FLAGS as DEV_SERVER_FLAGS } from '../scripts/dev-server.cjs';
import { SEARCH_ATTRIBUTE_FLAGS } from '../src/common/search-attributes';

const ROOT = join(__dirname, '..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  container_name?: string;
  ports?: Array<{ target: number; published?: string }>;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  command?: string[];
}

type ComposeCli = { command: string; prefix: string[] } | { skip: string };

/** `docker compose` (plugin) or a v2 `docker-compose`; otherwise why the tests are skipped. */
function findComposeCli(): ComposeCli {
  const plugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (plugin.status === 0) return { command: 'docker', prefix: ['compose'] };
  // The plugin binary that scripts/install-compose-plugin.sh builds also runs on its own.
  for (const command of [join(ROOT, '.tools', 'docker', 'cli-plugins', 'docker-compose'), 'docker-compose']) {
    const standalone = spawnSync(command, ['version', '--short'], { encoding: 'utf8' });
    if (standalone.status === 0 && Number(String(standalone.stdout).trim().replace(/^v/, '').split('.')[0]) >= 2) {
      return { command, prefix: [] };
    }
  }
  if (plugin.error) return { skip: 'the docker client is not installed' };
  return { skip: `docker is installed but its compose plugin is not (${String(plugin.stderr).trim().split('\n')[0]})` };
}

// Placeholders: `config` interpolates the environment, and real secrets must not reach test output.
const HOST_ENV = { OPENAI_API_KEY: 'sk-test-placeholder', OPENAI_BASE_URL: 'http://model.test/v1', AGENT_MODEL: 'test-model' };

function composeConfig(cli: { command: string; prefix: string[] }): Record<string, ComposeService> {
  const result = spawnSync(cli.command, [...cli.prefix, '-f', 'docker-compose.yml', 'config', '--format', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...HOST_ENV },
    timeout: 60000,
  });
  if (result.status !== 0) throw new Error(`docker compose config failed:\n${result.stderr || result.error}`);
  return JSON.parse(result.stdout).services;
}

const cli = findComposeCli();
if ('skip' in cli) console.warn(`test/docker-compose.test.ts: docker compose checks SKIPPED because ${cli.skip}`);
const describeCompose = 'skip' in cli ? describe.skip : describe;
const title = 'skip' in cli ? `docker-compose.yml (skipped: ${cli.skip})` : 'docker-compose.yml';

describeCompose(title, () => {
  let services: Record<string, ComposeService>;
  beforeAll(() => {
    services = composeConfig(cli as { command: string; prefix: string[] });
  });

  test('has postgres, temporal, temporal-ui, the one-shot setup services and worker', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['postgres', 'temporal', 'temporal-schema', 'temporal-search-attributes', 'temporal-ui', 'worker'].sort(),
    );
  });

  test('temporal runs on postgres after the schema is applied', () => {
    const temporal = services.temporal;
    expect(temporal.image).toMatch(/^temporalio\/server:1\.32\./);
    expect(temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres' });
    expect(temporal.depends_on?.['temporal-schema']?.condition).toBe('service_completed_successfully');
    expect(services['temporal-schema'].command?.join('\n')).toContain('update-schema');
  });

  test('temporal-ui serves on port 8080', () => {
    const ui = services['temporal-ui'];
    expect(ui.image).toMatch(/^temporalio\/ui:/);
    expect(ui.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(ui.ports?.map((port) => port.target)).toEqual([8080]);
  });

  test('the registration service creates every search attribute of the project', () => {
    const register = services['temporal-search-attributes'];
    expect(register.image).toMatch(/^temporalio\/admin-tools:/);
    const script = register.command?.join('\n') ?? '';
    expect(script).toContain('temporal operator search-attribute create');
    for (const flag of SEARCH_ATTRIBUTE_FLAGS) expect(script).toContain(flag);
  });

  test('worker is built from the repository and can be scaled', () => {
    const worker = services.worker;
    expect(worker.build?.context).toBe(ROOT);
    expect(worker.build?.dockerfile).toBe('Dockerfile');
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
    expect(worker.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233', ...HOST_ENV });
    expect(worker.depends_on?.['temporal-search-attributes']?.condition).toBe('service_completed_successfully');
  });
});

describe('deployment files agree with the code', () => {
  test('scripts/dev-server.cjs registers the search attributes of src/common/search-attributes.ts', () => {
    expect([...DEV_SERVER_FLAGS]).toEqual(SEARCH_ATTRIBUTE_FLAGS);
  });

  test('the Dockerfile installs production dependencies and runs the worker entry point', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-slim$/m);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toContain('npm run build');
    expect(dockerfile).toContain('dist/worker/main.js');
  });
});
