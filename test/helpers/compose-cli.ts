import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export type ComposeCli = { command: string; prefix: string[] } | { skip: string };

/** `docker compose` (plugin) or a v2 `docker-compose` (scripts/install-compose-plugin.sh builds one into .tools); otherwise why not. */
export function findComposeCli(): ComposeCli {
  const plugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (plugin.status === 0) return { command: 'docker', prefix: ['compose'] };
  for (const command of [join(ROOT, '.tools', 'docker', 'cli-plugins', 'docker-compose'), 'docker-compose']) {
    const standalone = spawnSync(command, ['version', '--short'], { encoding: 'utf8' });
    if (standalone.status === 0 && Number(String(standalone.stdout).trim().replace(/^v/, '').split('.')[0]) >= 2) {
      return { command, prefix: [] };
    }
  }
  if (plugin.error) return { skip: 'the docker client is not installed' };
  return { skip: `docker is installed but its compose plugin is not (${String(plugin.stderr).trim().split('\n')[0]})` };
}
