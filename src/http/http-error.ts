/** A refusal with its HTTP status: each server answers it in its own form (JSON, a page, a JSON-RPC error). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Headers the answer carries besides the server's own (e.g. `Allow`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
