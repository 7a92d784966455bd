import type { Payload } from '@temporalio/common';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import type { LiveDelta } from '../../common/contracts/live-deltas';
import { decodePayload } from '../decode-payload';

const wirePayloadSchema = z.object({ metadata: z.record(z.string(), z.string()), data: z.string() });

const liveDeltaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('tool_call'),
    index: z.number().int().min(0),
    id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.string(),
  }),
]);

/** How a read of a call's deltas stopped: the call ended, or the connection was lost (or refused) first. */
export type LiveReadEnd = 'ended' | 'lost';

type Decoder = Parameters<typeof decodePayload>[0];

/** A delta this client cannot read (no key for it, or not a delta): the stream fails with it, it is not a lost connection. */
export class UnreadableDeltaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableDeltaError';
  }
}

async function readDelta(decoder: Decoder, host: string, id: string | undefined, data: string): Promise<{ position: number; delta: LiveDelta }> {
  const position = Number(id);
  let wire: z.SafeParseReturnType<unknown, z.infer<typeof wirePayloadSchema>>;
  try {
    wire = wirePayloadSchema.safeParse(JSON.parse(data));
  } catch (cause) {
    throw new UnreadableDeltaError(`The live endpoint at ${host} sent a delta that is not JSON.`, { cause });
  }
  if (!Number.isInteger(position) || !wire.success) throw new UnreadableDeltaError(`The live endpoint at ${host} sent a delta this client cannot read.`);
  let decoded: unknown;
  try {
    decoded = await decodePayload(decoder, payloadOf(wire.data));
  } catch (cause) {
    throw new UnreadableDeltaError(`A delta from the live endpoint at ${host} could not be decoded: ${(cause as Error).message}`, { cause });
  }
  const delta = liveDeltaSchema.safeParse(decoded);
  if (!delta.success) throw new UnreadableDeltaError(`The live endpoint at ${host} sent a delta that is not a text or tool-call piece.`);
  return { position, delta: delta.data };
}

function payloadOf(wire: z.infer<typeof wirePayloadSchema>): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(wire.metadata)) metadata[key] = Buffer.from(value, 'base64');
  return { metadata, data: Buffer.from(wire.data, 'base64') };
}

/**
 * Reads one model call's deltas from the worker's live endpoint, from position `from` on, until
 * the call ends or the connection is lost. Each delta is decoded with the client's data converter
 * (its codec decrypts what the worker encrypted) and checked before it is given on.
 */
export async function readLiveDeltas(
  url: string,
  from: number,
  decoder: Decoder,
  onDelta: (position: number, delta: LiveDelta) => void,
  signal?: AbortSignal,
): Promise<LiveReadEnd> {
  let response: Response;
  try {
    response = await fetch(`${url}?from=${from}`, { headers: { accept: 'text/event-stream' }, ...(signal ? { signal } : {}) });
  } catch {
    return 'lost';
  }
  // The worker no longer has the call: it ended long ago, or the worker restarted.
  if (response.status === 404) return 'ended';
  if (!response.ok || !response.body) return 'lost';
  const host = new URL(url).host;
  const received: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => received.push(event) });
  const text = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(text.decode(chunk, { stream: true }));
      while (received.length > 0) {
        const event = received.shift()!;
        if (event.event === 'end') return 'ended';
        if (event.event !== 'delta') continue;
        const { position, delta } = await readDelta(decoder, host, event.id, event.data);
        onDelta(position, delta);
      }
    }
  } catch (error) {
    if (error instanceof UnreadableDeltaError) throw error;
    return 'lost';
  }
  return 'lost';
}
