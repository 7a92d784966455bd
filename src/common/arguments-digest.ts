import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { canonicalJson } from './canonical-json';

/**
 * The digest of a call's arguments as a surface showed them: SHA-256 of their canonical JSON, hex.
 * An answer carries it so the run can refuse one given for other arguments. Pure JavaScript
 * (`@noble/hashes`), because the run computes it too, in the workflow sandbox, where Node's crypto
 * does not exist.
 */
export function argumentsDigest(input: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(input))));
}
