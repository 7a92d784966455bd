import { defaultPayloadConverter, type LoadedDataConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { isEncryptedPayload, payloadKeyId } from '../codec/encryption-codec';

/** The marker of an encrypted suite file: the suite, one payload encrypted with the runs' codec. */
export const ENCRYPTED_SUITE_FORMAT = 'durable-agent-eval/encrypted';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'is not base64');

const envelopeSchema = z
  .object({
    format: z.literal(ENCRYPTED_SUITE_FORMAT),
    keyId: z.string().optional(),
    payload: z.object({ metadata: z.record(z.string(), base64), data: base64 }).strict(),
  })
  .strict();

export function isEncryptedSuiteFile(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === ENCRYPTED_SUITE_FORMAT;
}

/**
 * A suite file's text: with a codec that encrypts (the runs' own, when they are encrypted), the
 * suite as one encrypted payload, so a capture keeps what the run kept secret; else plain JSON.
 */
export async function suiteFileText(value: unknown, converter: Pick<LoadedDataConverter, 'payloadConverter' | 'payloadCodecs'>): Promise<{ text: string; encrypted: boolean }> {
  let payloads: Payload[] = [converter.payloadConverter.toPayload(value)];
  for (const codec of converter.payloadCodecs) payloads = await codec.encode(payloads);
  const payload = payloads[0]!;
  if (!isEncryptedPayload(payload)) return { text: `${JSON.stringify(value, null, 2)}\n`, encrypted: false };
  const metadata = Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, bytes]) => [key, Buffer.from(bytes).toString('base64')]));
  const keyId = payloadKeyId(payload);
  const envelope = { format: ENCRYPTED_SUITE_FORMAT, ...(keyId ? { keyId } : {}), payload: { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') } };
  return { text: `${JSON.stringify(envelope, null, 2)}\n`, encrypted: true };
}

/** The suite an encrypted file holds, decrypted with the codec made from the keys given; without keys, an error saying how to give them. */
export async function decryptSuiteFile(value: unknown, path: string, codecOfKeys: () => PayloadCodec | undefined): Promise<unknown> {
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${path} is marked ${ENCRYPTED_SUITE_FORMAT} but is not such a file: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const { keyId, payload } = parsed.data;
  const codec = codecOfKeys();
  if (!codec) {
    throw new Error(
      `${path} is encrypted${keyId ? ` (key '${keyId}')` : ''}: give the keys it was written with, as --encryption-key-file PATH, ` +
        'AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS (see docs/encryption.md).',
    );
  }
  const encoded: Payload = {
    metadata: Object.fromEntries(Object.entries(payload.metadata).map(([key, text]) => [key, Buffer.from(text, 'base64')])),
    data: Buffer.from(payload.data, 'base64'),
  };
  try {
    const [plain] = await codec.decode([encoded]);
    return defaultPayloadConverter.fromPayload(plain!);
  } catch (error) {
    throw new Error(`${path} could not be decrypted: ${(error as Error).message}`);
  }
}
