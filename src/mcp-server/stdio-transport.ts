import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkText, type ErrorReply } from './json-rpc-check';

/** A line longer than this is skipped to its end and answered with an error (the SDK's stdio transport stops at 10 MiB too). */
export const MAX_LINE_CHARS = 10 * 1024 * 1024;

/**
 * MCP over stdin/stdout, one JSON-RPC message per line. Unlike the SDK's stdio transport, which
 * drops a line it cannot parse (its sender would wait forever), every malformed line is answered
 * here with a JSON-RPC error (json-rpc-check), and the server goes on.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly decoder = new StringDecoder('utf8');
  private parts: string[] = [];
  private length = 0;
  private tooLong = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage | ErrorReply | ErrorReply[]): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.onclose?.();
  }

  private readonly onError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n')) {
      this.take(text.slice(0, newline));
      this.endLine();
      text = text.slice(newline + 1);
    }
    this.take(text);
  };

  private take(part: string): void {
    if (this.tooLong || part.length === 0) return;
    this.length += part.length;
    if (this.length > MAX_LINE_CHARS) {
      this.tooLong = true;
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  private endLine(): void {
    const line = this.parts.join('').replace(/\r$/, '');
    const tooLong = this.tooLong;
    this.parts = [];
    this.length = 0;
    this.tooLong = false;
    if (tooLong) {
      void this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: a line over ${MAX_LINE_CHARS} characters` } });
      return;
    }
    if (line.trim() === '') return;
    const checked = checkText(line);
    if (checked.ok) this.onmessage?.(checked.message);
    else void this.send(checked.reply);
  }
}
