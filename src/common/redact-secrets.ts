/** Looks like an API key or bearer token: `sk-...`, `Bearer ...`, or a long run of key characters. */
const keyLike = /\b(?:sk|pk|rk)-[A-Za-z0-9_*\-]{6,}|\bBearer\s+[A-Za-z0-9._~+/=\-]{6,}|[A-Za-z0-9_\-]{40,}/g;

/**
 * Removes the given secrets and anything key-like from text that may end up in failures or logs.
 * Secrets shorter than 8 characters are placeholders, not keys, and would mangle ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out.replace(keyLike, '[redacted]');
}
