import type { LoadedDataConverter, Payload } from '@temporalio/common';

/** A payload read outside a workflow call (heartbeat details, a memo), decoded as the client's data converter (and its codec) would. */
export async function decodePayload(client: { options: { loadedDataConverter: LoadedDataConverter } }, payload: Payload): Promise<unknown> {
  const { payloadConverter, payloadCodecs } = client.options.loadedDataConverter;
  let payloads = [payload];
  for (const codec of [...payloadCodecs].reverse()) payloads = await codec.decode(payloads);
  return payloadConverter.fromPayload(payloads[0]!);
}
