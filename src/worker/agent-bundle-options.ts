import { agentWorkflowInterceptorModules } from '../telemetry/workflow-interceptor-modules';
import { agentWorkflowsPath } from './workflows-path';
import { atBundleLanguageLevel } from './bundle-language-level';

/**
 * The module with the libraries that every run in a worker shares instead of loading its own copy
 * (Temporal's `preloadModules`): each cached run otherwise holds an instance of every module it
 * loads. Only stateless libraries belong there; Temporal freezes what it shares.
 */
export const SHARED_WORKFLOW_MODULES = [require.resolve('../workflows/shared-modules')];

/** What every bundle of the agent workflow is made from: at worker start, by `durable-agent bundle`, in tests and the benchmark. */
export function agentBundleOptions(moreInterceptorModules: string[] = []) {
  return {
    workflowsPath: agentWorkflowsPath(),
    workflowInterceptorModules: [...agentWorkflowInterceptorModules(), ...moreInterceptorModules],
    preloadModules: SHARED_WORKFLOW_MODULES,
    webpackConfigHook: atBundleLanguageLevel,
  };
}
