import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  McpError,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** Ids of our own requests: strings, so they never meet the SDK's numeric ones. */
const ID_PREFIX = 'durable-agent-';

export interface OpenRequestOptions {
  /** The client's request this one belongs to (over HTTP, it travels on that request's stream). */
  relatedRequestId?: RequestId;
  /** Withdraws the request: `notifications/cancelled` goes to the client, and the promise rejects with the reason. */
  signal: AbortSignal;
  /** A response that arrives after the request was withdrawn (the client answered meanwhile). */
  onLate?: (result: unknown) => void;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * The server's transport, with requests to the client that stay open for as long as the caller
 * wants: until the client answers, the caller's signal withdraws them, or the connection closes.
 * The SDK's own requests always carry a timer (60 s unless given; a longer one still caps them,
 * and setTimeout cannot wait more than 2^31-1 ms), which would cut off a person answering an
 * approval late. Everything else passes through to the SDK unchanged.
 */
export class OpenRequests implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private next = 0;
  private readonly waiting = new Map<string, Waiting>();
  private readonly late = new Map<string, (result: unknown) => void>();

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    const closed = this.inner.onclose;
    this.inner.onmessage = (message, extra) => {
      if (!this.settle(message)) this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      closed?.();
      const error = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
      this.late.clear();
      this.onclose?.();
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Sends a request without a timeout; resolves with the client's result, rejects with its error. */
  request(method: string, params: Record<string, unknown>, options: OpenRequestOptions): Promise<unknown> {
    const { signal, relatedRequestId, onLate } = options;
    const id = `${ID_PREFIX}${++this.next}`;
    const sendOptions = relatedRequestId !== undefined ? { relatedRequestId } : undefined;
    return new Promise<unknown>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const withdraw = () => {
        if (!this.waiting.delete(id)) return;
        if (onLate) this.late.set(id, onLate);
        this.inner
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(signal.reason?.message ?? signal.reason) } }, sendOptions)
          .catch(() => undefined);
        reject(signal.reason);
      };
      const done = () => {
        this.waiting.delete(id);
        signal.removeEventListener('abort', withdraw);
      };
      this.waiting.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      signal.addEventListener('abort', withdraw, { once: true });
      this.inner.send({ jsonrpc: '2.0', id, method, params }, sendOptions).catch((error: unknown) => this.waiting.get(id)?.reject(error));
    });
  }

  /** A response to one of our requests is ours alone: true when it was (also when it came too late for anyone). */
  private settle(message: JSONRPCMessage): boolean {
    const isResult = isJSONRPCResultResponse(message);
    if (!isResult && !isJSONRPCErrorResponse(message)) return false;
    const id = message.id;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return false;
    const waiting = this.waiting.get(id);
    if (waiting) {
      if (isResult) waiting.resolve(message.result);
      else waiting.reject(new McpError(message.error.code, message.error.message, message.error.data));
      return true;
    }
    const late = this.late.get(id);
    this.late.delete(id);
    if (late && isResult) late(message.result);
    return true;
  }
}
