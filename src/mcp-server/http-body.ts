import type { IncomingMessage } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { HttpError, readBody } from '../http';
import { checkText, type ErrorReply } from './json-rpc-check';

export type HttpBody = { ok: true; message: JSONRPCMessage } | { ok: false; status: number; reply: ErrorReply | ErrorReply[] };

/**
 * A POST body as one JSON-RPC message, checked the way stdio lines are (json-rpc-check): a body
 * that is not JSON is -32700, one that is not a valid message (or a batch) -32600 with the id of
 * the request it answers, so HTTP and stdio clients get the same answers. The SDK's size limit holds.
 */
export async function readJsonRpcBody(request: IncomingMessage, maxBytes = DEFAULT_MAX_REQUEST_BODY_SIZE): Promise<HttpBody> {
  let text: string;
  try {
    text = await readBody(request, { maxBytes, tooLarge: requestBodyTooLargeMessage(maxBytes) });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { ok: false, status: error.status, reply: { jsonrpc: '2.0', id: null, error: { code: -32000, message: error.message } } };
  }
  const checked = checkText(text);
  return checked.ok ? checked : { ok: false, status: 400, reply: checked.reply };
}
