import { existsSync } from 'node:fs';
import { loadClientConfigProfile, type ClientConfigProfile } from '@temporalio/envconfig';
import { applyConnectionOverrides } from './apply-connection-overrides';
import type { ConnectionOverrides } from './connection-overrides';
import { temporalEnvVars } from './temporal-env-vars';

const DEFAULT_FILE = 'the Temporal config file (TEMPORAL_CONFIG_FILE, or temporalio/temporal.toml in the user config folder)';

function explicitConfigFile(overrides: ConnectionOverrides, env: Record<string, string>): string | undefined {
  const file = overrides.configFile ?? env.TEMPORAL_CONFIG_FILE;
  // Temporal's loader treats a missing file as empty; a file someone named must exist.
  if (file !== undefined && !existsSync(file)) {
    throw new Error(`The Temporal config file ${file} (--config-file, TEMPORAL_CONFIG_FILE) does not exist.`);
  }
  return file;
}

/**
 * The connection profile with every source applied, by Temporal's own loader: the config file's
 * profile, then TEMPORAL_* variables over it, then the overrides over both. Reads no certificate.
 */
export function loadConnectionProfile(overrides: ConnectionOverrides = {}, env: NodeJS.ProcessEnv = process.env): ClientConfigProfile {
  const vars = temporalEnvVars(env);
  const file = explicitConfigFile(overrides, vars);
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({
      ...(file !== undefined ? { configSource: { path: file } } : {}),
      ...(overrides.profile !== undefined ? { profile: overrides.profile } : {}),
      overrideEnvVars: vars,
    });
  } catch (error) {
    const where = file ?? DEFAULT_FILE;
    const name = overrides.profile ?? vars.TEMPORAL_PROFILE;
    if (name !== undefined && /not found/.test((error as Error).message)) {
      throw new Error(`The profile '${name}' (--profile, TEMPORAL_PROFILE) is not in ${where}.`);
    }
    throw new Error(`Cannot read ${where}: ${(error as Error).message}`);
  }
  return applyConnectionOverrides(profile, overrides);
}
