import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventStream, readJsonBody } from '../http';
import { streamPayloads } from './scripted-chunks';
import { completionBody, type CompletionMeta } from './scripted-completion';
import { errorBody } from './scripted-error-body';
import { faultForAttempt, ScriptedFaultLedger } from './scripted-fault-ledger';
import type {
  DropConnectionFault,
  ModelScript,
  ScriptedFault,
  ScriptedModelServer,
  ScriptedModelServerOptions,
  ScriptedRequest,
  ScriptedRequestLogEntry,
  ScriptedUsage,
  StallFault,
} from './scripted-model-types';
import { countAssistantTurns, lastUserText, readToolResults } from './scripted-request-reader';
import { pickTurn, resolveTurn, type ResolvedTurn } from './scripted-turn';
import { scriptedUsage } from './scripted-usage';

export type {
  DropConnectionFault,
  ModelScript,
  ScriptedFault,
  ScriptedModelServer,
  ScriptedModelServerOptions,
  ScriptedRequest,
  ScriptedRequestLogEntry,
  ScriptedToolCall,
  ScriptedToolResult,
  ScriptedTurn,
  ScriptedTurnInfo,
  ScriptedTurnSpec,
  StallFault,
  StatusFault,
} from './scripted-model-types';

interface Reply {
  turn: ResolvedTurn;
  usage: ScriptedUsage;
  meta: CompletionMeta;
  fault: ScriptedFault | undefined;
  includeUsage: boolean;
}

/** Starts an OpenAI-compatible chat completions server that answers from a script. */
export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  let defaultScript: ModelScript = options.script ?? [];
  const byModel = new Map<string, ModelScript>(Object.entries(options.byModel ?? {}));
  const ledger = new ScriptedFaultLedger();
  const requests: ScriptedRequestLogEntry[] = [];
  const sockets = new Set<Socket>();
  const wakers = new Set<() => void>();
  const chunkSize = options.chunkSize ?? 4;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  let completionCount = 0;
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  const writeAndFlush = (res: ServerResponse, data: string) =>
    new Promise<void>((resolve) => {
      res.write(data, () => resolve());
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const listModels = (res: ServerResponse) => {
    const ids = [...new Set([...(options.models ?? ['scripted-model']), ...byModel.keys()])];
    sendJson(res, 200, {
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })),
    });
  };

  const sendCompletion = async (res: ServerResponse, reply: Reply) => {
    const text = JSON.stringify(completionBody(reply.turn, reply.usage, reply.meta));
    const half = text.slice(0, Math.floor(text.length / 2));
    const drop = dropFault(reply.fault);
    const stall = stallFault(reply.fault);
    if (drop?.graceful) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(half) });
      res.end(half);
      return;
    }
    if (drop && (drop.afterChunks ?? 1) === 0) {
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    if (drop) {
      await writeAndFlush(res, half);
      res.socket?.destroy();
      return;
    }
    if (stall) {
      res.flushHeaders();
      await sleep(stall.stallMs);
      if (closed || res.destroyed) return;
    }
    res.end(text);
  };

  const sendStream = async (res: ServerResponse, reply: Reply) => {
    const drop = dropFault(reply.fault);
    const stall = stallFault(reply.fault);
    const stopAt = drop ? (drop.afterChunks ?? 1) : undefined;
    if (stopAt === 0 && !drop?.graceful) {
      res.socket?.destroy();
      return;
    }
    const events = new EventStream(res);
    const payloads = streamPayloads(reply.turn, reply.usage, reply.meta, {
      chunkSize,
      includeUsage: reply.includeUsage,
    });
    for (let index = 0; index < payloads.length; index++) {
      if (index === stopAt) {
        if (drop?.graceful) events.end();
        else res.socket?.destroy();
        return;
      }
      // Each chunk waits until the socket took it: the next one (or a stall, or a drop) comes after.
      await events.send({ data: payloads[index]! });
      options.onChunkSent?.(index, payloads[index]!);
      if (index === 0 && stall) await sleep(stall.stallMs);
      else if (chunkDelayMs > 0) await sleep(chunkDelayMs);
      if (closed || res.destroyed) return;
    }
    events.end();
  };

  /** Requests served per model in the last minute, when the server keeps a rate limit. */
  const served = new Map<string, number[]>();
  let rateLimited = 0;
  /** Seconds the caller should wait when this request passes the limit; undefined when it may be served. */
  const overRateLimit = (model: string, at: number): number | undefined => {
    const limit = options.requestsPerMinute;
    if (limit === undefined) return undefined;
    const recent = (served.get(model) ?? []).filter((time) => time > at - 60_000);
    served.set(model, recent);
    if (recent.length >= limit) return Math.max(1, Math.ceil((recent[0]! + 60_000 - at) / 1000));
    recent.push(at);
    return undefined;
  };

  const chatCompletion = async (req: IncomingMessage, res: ServerResponse) => {
    let body: ScriptedRequest;
    try {
      body = (await readJsonBody(req, { maxBytes: Infinity })) as ScriptedRequest;
    } catch {
      sendJson(res, 400, errorBody(400, '', 'Request body is not valid JSON.'));
      return;
    }
    if (typeof body?.model !== 'string' || !Array.isArray(body.messages)) {
      sendJson(res, 400, errorBody(400, '', 'Request needs a string `model` and a `messages` array.'));
      return;
    }
    const model = body.model;
    const stream = body.stream === true;
    const turnIndex = countAssistantTurns(body.messages);
    const at = Date.now();
    requests.push({ model, turnIndex, stream, body, at });
    const limited = overRateLimit(model, at);
    if (limited !== undefined) {
      rateLimited += 1;
      sendJson(res, 429, errorBody(429, model), { 'retry-after': String(limited) });
      return;
    }

    const attempt = ledger.nextAttempt(model, turnIndex);
    const script = byModel.get(model) ?? defaultScript;
    const info = {
      model,
      turnIndex,
      attempt,
      stream,
      toolResults: readToolResults(body.messages),
      lastUserText: lastUserText(body.messages),
    };
    // Script problems answer 400 so that a broken test fails at once instead of being retried.
    let spec;
    try {
      spec = await pickTurn(script, body, info);
    } catch (error) {
      sendJson(res, 400, errorBody(400, model, `Scripted model script failed: ${(error as Error).message}`));
      return;
    }
    if (!spec) {
      const length = Array.isArray(script) ? script.length : 0;
      const message = `No scripted turn ${turnIndex} for model ${model} (the script has ${length} turns).`;
      sendJson(res, 400, errorBody(400, model, message));
      return;
    }

    const fault = faultForAttempt(spec.faults, attempt);
    if (fault && 'status' in fault) {
      sendJson(res, fault.status, fault.body ?? errorBody(fault.status, model), fault.headers);
      return;
    }
    completionCount += 1;
    const reply: Reply = {
      turn: resolveTurn(spec, turnIndex),
      usage: scriptedUsage(body, spec),
      meta: { id: `chatcmpl-scripted-${completionCount}`, created: Math.floor(Date.now() / 1000), model },
      fault,
      includeUsage: body.stream_options?.include_usage === true,
    };
    await (stream ? sendStream(res, reply) : sendCompletion(res, reply));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      // Echoes the key as some providers do, so that tests can prove it never reaches a failure message.
      sendJson(res, 401, errorBody(401, '', `Incorrect API key provided: ${presented}.`));
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') return listModels(res);
    if (req.method === 'POST' && path === '/v1/chat/completions') return chatCompletion(req, res);
    sendJson(res, 404, errorBody(404, '', `Unknown endpoint ${req.method} ${path}.`));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, errorBody(500, '', `Scripted model server error: ${error.message}`));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    baseURL: `http://${host}:${port}/v1`,
    requests,
    get rateLimited() {
      return rateLimited;
    },
    setScript(script, setOptions) {
      if (setOptions?.model !== undefined) byModel.set(setOptions.model, script);
      else defaultScript = script;
      ledger.reset();
    },
    async close() {
      closed = true;
      for (const wake of [...wakers]) wake();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function dropFault(fault: ScriptedFault | undefined): DropConnectionFault | undefined {
  return fault && 'dropConnection' in fault ? fault : undefined;
}

function stallFault(fault: ScriptedFault | undefined): StallFault | undefined {
  return fault && 'stallMs' in fault ? fault : undefined;
}
