/** Request body of POST /v1/chat/completions as the scripted server parses it (loosely typed on purpose). */
export interface ScriptedRequest {
  model: string;
  messages: ScriptedRequestMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  [field: string]: unknown;
}

export interface ScriptedRequestMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [field: string]: unknown;
}

/** One tool call the scripted model emits. A string `arguments` is sent verbatim (it may be invalid JSON). */
export interface ScriptedToolCall {
  name: string;
  arguments?: Record<string, unknown> | unknown[] | string;
  /**
   * Defaults to `call_<turn>_<position>`, stable across retries. Several calls may share one id;
   * `null` sends the call without an id.
   */
  id?: string | null;
}

export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Answer with an HTTP error status. */
export interface StatusFault {
  status: number;
  /** JSON object or raw text; defaults to an OpenAI-style `{ error: { message, type, code } }`. */
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
}

/** Destroy the socket after `afterChunks` chunks (non-streaming: after the headers and part of the body). */
export interface DropConnectionFault {
  dropConnection: true;
  /** 0 destroys the socket before anything is written. Default 1. */
  afterChunks?: number;
  /**
   * End the response cleanly instead of destroying the socket, as a proxy that cuts a reply short
   * does: a stream stops after `afterChunks` chunks, a non-streaming body after half its JSON.
   */
  graceful?: boolean;
  times?: number;
}

/** Send the headers (and the first chunk when streaming), wait `stallMs`, then finish normally. */
export interface StallFault {
  stallMs: number;
  times?: number;
}

export type ScriptedFault = StatusFault | DropConnectionFault | StallFault;

/**
 * One model reply. `{}` is an empty reply; `text` and `toolCalls` may be combined.
 * Faults are served, in order and each `times` times (default 1), to the first requests for this turn.
 */
export interface ScriptedTurnSpec {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Overrides the derived token counts; total is always their sum. */
  usage?: Partial<ScriptedUsage>;
  finishReason?: string;
  faults?: ScriptedFault[];
  /** Characters per streamed text or argument chunk, overriding the server's `chunkSize`. */
  chunkSize?: number;
  /** Mimics providers that repeat the tool name on the last argument fragment of a call (AgentScope #1216). */
  nameOnLastFragment?: boolean;
}

/** A bare string is a text reply. */
export type ScriptedTurn = string | ScriptedTurnSpec;

/** What a dynamic script learns about the request besides its body. */
export interface ScriptedTurnInfo {
  model: string;
  /** Number of assistant messages in the request: the same for a retried request. */
  turnIndex: number;
  /** 1 for the first request seen for this model and turn, 2 for its first retry, ... */
  attempt: number;
  stream: boolean;
  /** Tool results after the last assistant message, in request order. */
  toolResults: ScriptedToolResult[];
  /** Text of the last user message, '' when there is none. */
  lastUserText: string;
}

export interface ScriptedToolResult {
  toolCallId: string;
  /** Tool name from the matching assistant tool call, '' when it cannot be found. */
  name: string;
  /** Arguments of the matching assistant tool call, '' when it cannot be found. */
  arguments: string;
  content: string;
}

export type ScriptFunction = (request: ScriptedRequest, info: ScriptedTurnInfo) => ScriptedTurn | Promise<ScriptedTurn>;

/** An array is indexed by the turn index; a function decides per request. */
export type ModelScript = ScriptedTurn[] | ScriptFunction;

export interface ScriptedRequestLogEntry {
  model: string;
  turnIndex: number;
  stream: boolean;
  body: ScriptedRequest;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

export interface ScriptedModelServerOptions {
  script?: ModelScript;
  /** Scripts for particular model names; other models use `script`. */
  byModel?: Record<string, ModelScript>;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Characters per streamed chunk. Default 4. */
  chunkSize?: number;
  /** Pause between streamed chunks. Default 0. */
  chunkDelayMs?: number;
  /** Called as each streamed chunk is written (its position in the reply, the chunk's JSON), e.g. to time what reaches a reader. */
  onChunkSent?(index: number, chunk: string): void;
  /**
   * A provider's rate limit: more than this many requests of one model in any 60 s answer 429 with
   * `retry-after` (seconds until the oldest leaves the minute), as providers do. None by default.
   */
  requestsPerMinute?: number;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
  /** Listed by GET /v1/models besides the `byModel` keys. Default ['scripted-model']. */
  models?: string[];
}

export interface ScriptedModelServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseURL: string;
  /** Every parsed chat completion request, in arrival order. */
  requests: ScriptedRequestLogEntry[];
  /** Requests answered 429 by the server's own `requestsPerMinute`. */
  readonly rateLimited: number;
  /** Replaces the default script, or the script of one model; restarts fault counting. */
  setScript(script: ModelScript, options?: { model?: string }): void;
  close(): Promise<void>;
}
