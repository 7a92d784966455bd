import { wildcardMatcher } from '../common/glob';

function matchesGlob(name: string, pattern: string): boolean {
  return wildcardMatcher(pattern)(name);
}

/** enableTools (when given) keeps only matching tools; disableTools then removes matching ones. */
export function isToolEnabled(name: string, settings: { enableTools?: string[]; disableTools?: string[] }): boolean {
  if (settings.enableTools && !settings.enableTools.some((pattern) => matchesGlob(name, pattern))) return false;
  return !(settings.disableTools ?? []).some((pattern) => matchesGlob(name, pattern));
}
