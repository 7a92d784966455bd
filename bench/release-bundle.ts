import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

const ROOT = join(__dirname, '..');

/** The commits of earlier releases the bench compares with (their workflow code runs beside today's). */
export const RELEASE_COMMITS = {
  '0.5.0': 'c91b41aff3f8a3890d38aded2286ad8ec4681158',
  '0.6.0': '3beb169cb44fe186c22097cb67639f06daba3c7b',
} as const;

export type Release = keyof typeof RELEASE_COMMITS;

/**
 * The agent workflow of an earlier release, bundled as that release bundled it (its own sources,
 * interceptors and shared modules), for a worker beside today's: the same activities serve both,
 * since the activity contracts did not change. Its sources are taken from git into .bench-releases/.
 * 0.5.0 and 0.6.0 share the layout this reads: `src/workflows/index.ts` exports `agentWorkflow`, and
 * `src/worker/agent-bundle-options.ts` gives the bundle's interceptors and shared modules.
 */
export async function bundleReleaseWorkflows(release: Release): Promise<{ code: string }> {
  const dir = join(ROOT, '.bench-releases', release);
  if (!existsSync(join(dir, 'src'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', RELEASE_COMMITS[release], 'src'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  const entry = join(dir, 'bench-workflows.ts');
  writeFileSync(entry, "export { agentWorkflow } from './src/workflows';\n");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { agentBundleOptions } = require(join(dir, 'src', 'worker', 'agent-bundle-options')) as typeof import('../src/worker/agent-bundle-options');
  const { code } = await bundleWorkflowCode({ ...agentBundleOptions(), workflowsPath: entry, logger: new DefaultLogger('ERROR') });
  return { code };
}
