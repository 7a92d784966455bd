import type { ClientCapabilities, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Elicit } from './approval-elicitation';
import type { OpenRequests } from './open-requests';

/** Form elicitation: declared as `form`, or as an empty `elicitation` (what it meant before URL mode existed). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * `elicitation/create` as an open request: no timeout, so the form stays open for as long as the
 * person takes, until the signal withdraws it (the tool call ends, the call is decided elsewhere)
 * or the connection closes. With `relatedRequestId` it belongs to that tools/call.
 */
export function formElicitor(requests: OpenRequests, relatedRequestId?: RequestId): Elicit {
  return (params, { signal, onLate }) =>
    requests.request('elicitation/create', params as Record<string, unknown>, {
      signal,
      ...(onLate ? { onLate } : {}),
      ...(relatedRequestId !== undefined ? { relatedRequestId } : {}),
    });
}
