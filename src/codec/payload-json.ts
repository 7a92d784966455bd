import type { Payload } from '@temporalio/common';
import { z } from 'zod';

/** A payload in protobuf's JSON form, as the Web UI and the temporal CLI send it to a codec server: bytes as base64. */
export interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

export const payloadsBodySchema = z.object({
  payloads: z.array(
    z
      .object({
        metadata: z.record(z.string(), z.string()).nullish(),
        data: z.string().nullish(),
      })
      .passthrough(),
  ),
});

// Buffer's base64 decoder takes the standard and the URL-safe alphabet, padded or not, as protobuf's JSON allows.
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, 'base64');
const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function payloadFromJson(json: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(json.metadata ?? {}).map(([key, value]) => [key, fromBase64(value)])),
    data: fromBase64(json.data ?? ''),
  };
}

export function payloadToJson(payload: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, toBase64(value)])),
    data: toBase64(payload.data ?? new Uint8Array()),
  };
}
