import { z } from 'zod';
import { EncryptionKeyError } from './encryption-key-error';

/** AES-256: every key is 32 bytes. */
export const KEY_BYTES = 32;

export const GENERATE_KEY_HINT = 'make one with `openssl rand -base64 32`';

/**
 * The keys of a deployment: new payloads are encrypted with `current`, payloads are decrypted
 * with whichever key their `encryption-key-id` names. The shape of the key file
 * (AGENT_ENCRYPTION_KEY_FILE): `{"current":"k2","keys":{"k2":"<base64>","k1":"<base64>"}}`.
 */
export interface EncryptionKeySet {
  /** Id of the key new payloads are encrypted with; one of `keys`. */
  current: string;
  /** Every known key by id: 32 bytes, as base64 text or bytes. */
  keys: Record<string, string | Uint8Array>;
}

/** A key set checked and decoded. */
export interface ResolvedEncryptionKeys {
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

// At most 32 characters: a base64 key (44) can never pass for an id and be quoted in an error.
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

// Not `instanceof Uint8Array`: bytes made in another realm (a vm context, jest) are views too.
const bytesSchema = z.custom<Uint8Array>((value) => ArrayBuffer.isView(value) && (value as Uint8Array).BYTES_PER_ELEMENT === 1, 'expected base64 text or bytes');

const keyIdSchema = z.string().regex(KEY_ID, 'a key id is 1 to 32 letters, digits, ".", "_" or "-"');

/** Decodes one key; the messages never contain the key material. */
function keyBytes(value: string | Uint8Array, ctx: z.RefinementCtx): Buffer | undefined {
  let bytes: Buffer;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not valid base64 (${GENERATE_KEY_HINT})` });
      return undefined;
    }
    bytes = Buffer.from(text, 'base64');
  } else {
    bytes = Buffer.from(value);
  }
  if (bytes.length !== KEY_BYTES) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${bytes.length} bytes; AES-256 needs ${KEY_BYTES} (${GENERATE_KEY_HINT})` });
    return undefined;
  }
  return bytes;
}

export const encryptionKeySetSchema = z
  .object({
    // Its format is the keys' own: it must be one of them (checked below).
    current: z.string(),
    keys: z.record(keyIdSchema, z.union([z.string(), bytesSchema]).transform(keyBytes)),
  })
  .strict()
  .superRefine((set, ctx) => {
    const ids = Object.keys(set.keys);
    if (ids.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['keys'], message: 'no keys' });
    else if (!(set.current in set.keys)) {
      // Quoted only when it looks like an id: a key pasted there by mistake stays out of the message.
      const shown = KEY_ID.test(set.current) ? `'${set.current}'` : 'the value given';
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['current'], message: `${shown} is not one of the keys (${ids.join(', ')})` });
    }
  });

function describeIssue(issue: z.ZodIssue): string {
  // An invalid id is not quoted: it may be a key given the wrong way round (BASE64:ID).
  const segments = issue.path.map((segment) => (typeof segment === 'string' && KEY_ID.test(segment) ? segment : '<an invalid id>'));
  const path = segments.length > 0 ? `${segments.join('.')}: ` : '';
  return `${path}${issue.message}`;
}

/** Checks and decodes a key set; `source` names where it came from in the error (a variable, a file). */
export function resolveEncryptionKeys(input: unknown, source = 'encryption keys'): ResolvedEncryptionKeys {
  const parsed = encryptionKeySetSchema.safeParse(input);
  if (!parsed.success) {
    throw new EncryptionKeyError(`${source}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  }
  const keys = new Map<string, Buffer>();
  for (const [id, bytes] of Object.entries(parsed.data.keys)) keys.set(id, bytes!);
  return { current: parsed.data.current, keys };
}
