import type { BundleOptions } from '@temporalio/worker';

type Configuration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
type Rule = { use?: { loader?: unknown; options?: { jsc?: Record<string, unknown> } } };

/**
 * The language level TypeScript in the workflow bundle is compiled to: ES2022, the package's own
 * (tsconfig.json), instead of the ES2017 Temporal's bundler sets. The installed package bundles its
 * compiled JavaScript, already ES2022; a bundle made from the sources (tests, the benchmark, a worker
 * run with tsx) and a user's own TypeScript interceptor modules are compiled by this rule. At ES2017
 * every object spread and rest of the loop would become a helper call, so the sources would run other
 * code than the package does: slower on the workflow thread, and with other class-field semantics.
 */
export const WORKFLOW_BUNDLE_TARGET = 'es2022';

function isSwcRule(rule: unknown): rule is Required<Rule> & { use: { options: { jsc?: Record<string, unknown> } } } {
  const use = (rule as Rule | undefined)?.use;
  return typeof use?.loader === 'string' && use.loader.includes('swc-loader') && typeof use.options === 'object';
}

/** Temporal's webpack configuration with its swc rule compiling to WORKFLOW_BUNDLE_TARGET. */
export function atBundleLanguageLevel(config: Configuration): Configuration {
  for (const rule of config.module?.rules ?? []) {
    if (isSwcRule(rule)) rule.use.options.jsc = { ...rule.use.options.jsc, target: WORKFLOW_BUNDLE_TARGET };
  }
  return config;
}
