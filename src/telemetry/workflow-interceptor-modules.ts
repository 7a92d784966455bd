/**
 * The workflow interceptor modules that are part of the agent workflow code: every bundle of it
 * (made at worker start, by `durable-agent bundle`, or by the tests) includes them, whether or not
 * a worker exports traces. Workers with and without tracing so run the same workflow code, and a
 * prebuilt bundle traces as soon as a worker is configured to.
 */
export function agentWorkflowInterceptorModules(): string[] {
  return [require.resolve('./workflow-interceptors')];
}
