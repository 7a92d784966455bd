/**
 * The agent workflow code that Temporal bundles: dist/workflows/index.js in the installed
 * package, src/workflows/index.ts when running from the sources.
 */
export function agentWorkflowsPath(): string {
  return require.resolve('../workflows');
}
