/** `*` matches any run of characters; everything else is literal. */
export function matchesGlob(name: string, pattern: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(name);
}

/** enableTools (when given) keeps only matching tools; disableTools then removes matching ones. */
export function isToolEnabled(name: string, settings: { enableTools?: string[]; disableTools?: string[] }): boolean {
  if (settings.enableTools && !settings.enableTools.some((pattern) => matchesGlob(name, pattern))) return false;
  return !(settings.disableTools ?? []).some((pattern) => matchesGlob(name, pattern));
}
