const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment a command gets: PATH, HOME (the workspace) and LANG. Nothing else
 * of the worker's environment (API keys, tokens) reaches it.
 */
export function cleanEnv(workspace: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: from.PATH || DEFAULT_PATH,
    HOME: workspace,
    LANG: from.LANG || 'C.UTF-8',
  };
}
