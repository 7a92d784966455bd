/**
 * The environment as Temporal's loader should see it. Empty values count as unset, as they did
 * before the loader was used: `TEMPORAL_API_KEY=` (what compose passes for `${TEMPORAL_API_KEY:-}`)
 * must not turn TLS on. TEMPORAL_GRPC_META_* keep theirs: there, empty removes a header.
 */
export function temporalEnvVars(env: NodeJS.ProcessEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (value === '' && !name.startsWith('TEMPORAL_GRPC_META_')) continue;
    vars[name] = value;
  }
  return vars;
}
