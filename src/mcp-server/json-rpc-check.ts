import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A JSON-RPC error the server sends for a message it cannot take; `id` is null when the message had none it may answer to. */
export interface ErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export type CheckedMessage = { ok: true; message: JSONRPCMessage } | { ok: false; reply: ErrorReply | ErrorReply[] };

const requestId = z.union([z.string(), z.number().int()]);

/** What every message must be, with a reason per field; the SDK's schema then decides what it is. */
const envelope = z.object({
  jsonrpc: z.literal('2.0', { errorMap: () => ({ message: '"jsonrpc" must be "2.0"' }) }),
  method: z.string({ invalid_type_error: '"method" must be a string' }).optional(),
  id: z.unknown().refine((id) => id === undefined || requestId.safeParse(id).success, '"id" must be a string or an integer'),
  params: z.record(z.unknown(), { invalid_type_error: '"params" must be an object' }).optional(),
});

const errorReply = (id: ErrorReply['id'], code: number, message: string): ErrorReply => ({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * The id an error may answer: a request's. A message without `method` is answered with id null,
 * since its id may be one of the peer's own requests, which an error with that id would settle.
 */
function answerableId(value: unknown): ErrorReply['id'] {
  if (typeof value !== 'object' || value === null || !('method' in value)) return null;
  const id = requestId.safeParse((value as { id?: unknown }).id);
  return id.success ? id.data : null;
}

function invalidReason(value: unknown): string {
  if (typeof value !== 'object' || value === null) return 'a JSON-RPC message must be an object';
  const parsed = envelope.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message).join('; ');
  if (parsed.data.method !== undefined) return 'not a valid request or notification';
  if (!('id' in value)) return 'it has no "method" (a request or notification) and no "id" (a response)';
  return 'a response needs an "id" and either a "result" object or an "error" with a numeric "code" and a "message"';
}

/**
 * One message as received (parsed JSON), or the JSON-RPC error that answers it. Batches are
 * refused: MCP removed JSON-RPC batching in 2025-06-18 (the SDK's stdio transport never took
 * them), so every entry of one is answered with Invalid Request, with its id when it has one, and
 * none of them is run: a sender waiting on an id is answered, and learns to send messages one by one.
 */
export function checkMessage(value: unknown): CheckedMessage {
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, reply: errorReply(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch') };
    const message = 'Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send each message by itself';
    return { ok: false, reply: value.map((entry) => errorReply(answerableId(entry), ErrorCode.InvalidRequest, message)) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  return { ok: false, reply: errorReply(answerableId(value), ErrorCode.InvalidRequest, `Invalid Request: ${invalidReason(value)}`) };
}

/** One line (or HTTP body) of JSON text: its message, or the error that answers it (-32700 when it is not JSON). */
export function checkText(text: string): CheckedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reply: errorReply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`) };
  }
  return checkMessage(value);
}
