import { argumentsDigest } from './arguments-digest';
import type { PermissionSettings } from './permissions';

/**
 * The version of the rules a call was asked under: the digest of the agent's permission settings
 * and the run's session rules (which a `remember` answer extends). An answer carries the version
 * it saw; the run refuses it when the call's rules are no longer those.
 */
export function rulesVersion(permissions: PermissionSettings, sessionRules: readonly string[]): string {
  return argumentsDigest({ permissions, sessionRules });
}
