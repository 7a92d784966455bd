import { agentWorkflowInterceptorModules } from '../telemetry/workflow-interceptor-modules';
import { agentWorkflowsPath } from './workflows-path';
import { atBundleLanguageLevel } from './bundle-language-level';

/**
 * The agent workflow code and its interceptors, loaded once per worker before any run and shared
 * by all of them (Temporal's `preloadModules`, which freezes what it shares). Without it each run
 * evaluates its own copy of every module in its first workflow task (measured in docs/benchmark.md,
 * 0.10.2) and each cached run holds that copy. Sharing asks that these modules keep no state of a
 * run at module level: test/architecture/shared-module-state.test.ts holds them to it. Lazily
 * required modules (OpenTelemetry, on a run's first traced call) are still each run's own.
 */
export const SHARED_WORKFLOW_MODULES = [agentWorkflowsPath(), ...agentWorkflowInterceptorModules()];

/** What every bundle of the agent workflow is made from: at worker start, by `durable-agent bundle`, in tests and the benchmark. */
export function agentBundleOptions(moreInterceptorModules: string[] = []) {
  return {
    workflowsPath: agentWorkflowsPath(),
    workflowInterceptorModules: [...agentWorkflowInterceptorModules(), ...moreInterceptorModules],
    preloadModules: SHARED_WORKFLOW_MODULES,
    webpackConfigHook: atBundleLanguageLevel,
  };
}
