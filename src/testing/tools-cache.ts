import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where a project using the package keeps the pinned Temporal CLI once installed: `.tools/` under this folder. */
export function toolsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'durable-agent');
}
