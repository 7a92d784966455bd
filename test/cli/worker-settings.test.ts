import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerConfigurationError } from '../../src/worker/configuration-error';
import { readEntrySettings } from '../../src/cli/worker-settings';

const dir = mkdtempSync(join(tmpdir(), 'entry-settings-'));
const moduleFile = join(dir, 'agents.js');
writeFileSync(moduleFile, 'exports.agents = [];');
const MODEL = { OPENAI_BASE_URL: 'http://model.test/v1' };

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    readEntrySettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkerConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('readEntrySettings: what the worker entry point needs', () => {
  test('AGENT_MODULE and a model endpoint are enough', () => {
    expect(readEntrySettings({ AGENT_MODULE: moduleFile, ...MODEL })).toEqual({ agents: { module: moduleFile } });
  });

  test('the demo agents only with AGENT_DEMO set and AGENT_MODULE unset', () => {
    expect(readEntrySettings({ AGENT_DEMO: '1', ...MODEL }).agents).toEqual({ demo: true });
    expect(readEntrySettings({ AGENT_DEMO: 'true', AGENT_MODULE: moduleFile, ...MODEL }).agents).toEqual({ module: moduleFile });
    expect(problemsOf({ AGENT_DEMO: '0', ...MODEL })).toContain('AGENT_MODULE is not set');
  });

  test('nothing set: one message naming everything to set', () => {
    const message = problemsOf({});
    expect(message).toContain('AGENT_MODULE is not set');
    expect(message).toContain('AGENT_DEMO=1');
    expect(message).toContain('OPENAI_API_KEY');
    expect(message).toContain('OPENAI_BASE_URL');
  });

  test('a module, a bundle or versioning settings that cannot work are reported together', () => {
    const message = problemsOf({
      AGENT_MODULE: join(dir, 'missing.js'),
      AGENT_WORKFLOW_BUNDLE: join(dir, 'missing-bundle.js'),
      AGENT_DEPLOYMENT_NAME: 'agents',
      ...MODEL,
    });
    expect(message).toContain(`AGENT_MODULE=${join(dir, 'missing.js')}: no such file`);
    expect(message).toContain('durable-agent bundle --out');
    expect(message).toContain('set AGENT_BUILD_ID too');
  });

  test('bundle, health file and deployment version are passed on', () => {
    const bundle = join(dir, 'bundle.js');
    writeFileSync(bundle, '');
    expect(
      readEntrySettings({
        AGENT_MODULE: moduleFile,
        OPENAI_API_KEY: 'sk-test',
        AGENT_WORKFLOW_BUNDLE: bundle,
        AGENT_HEALTH_FILE: '/tmp/worker.health',
        AGENT_DEPLOYMENT_NAME: 'agents',
        AGENT_BUILD_ID: 'b7',
        AGENT_VERSIONING_BEHAVIOR: 'auto_upgrade',
      }),
    ).toEqual({
      agents: { module: moduleFile },
      workflowBundle: bundle,
      healthFile: '/tmp/worker.health',
      deployment: { version: { deploymentName: 'agents', buildId: 'b7' }, useWorkerVersioning: true, defaultVersioningBehavior: 'AUTO_UPGRADE' },
    });
  });
});
