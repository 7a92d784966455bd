import { WorkflowNotFoundError } from '@temporalio/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type Request,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { z, type AnyZodObject, type ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { AgentClient } from '../client/agent-client';
import type { AgentRun } from '../client/agent-run';
import { RunRequestRejectedError } from '../client/request-rejected';
import { StartInputTooLargeError } from '../client/start-input-size';
import { PACKAGE_VERSION } from '../common/package-version';
import { followAgentCall } from './follow-agent-call';
import { followTask } from './follow-task';
import { conversationForkResult, FORK_TOOL, FORK_TOOL_DESCRIPTION, forkInput, startForkRun, withForkNote } from './fork-tool';
import { formElicitor, supportsFormElicitation } from './form-elicitor';
import { OpenRequests } from './open-requests';
import { RUN_TOOLS } from './run-tools';
import { TASK_POLL_INTERVAL_MS } from './run-task';
import { MCP_RUN_PREFIX, RunTaskStore } from './run-task-store';

/** An agent as the MCP server offers it: a tool of that name. */
export interface McpAgent {
  name: string;
  description: string;
  /** The JSON Schema of the agent's typed answer (`defineAgent({ output })`): published in the tool's output schema as `data`. */
  dataSchema?: Record<string, unknown>;
}

/** What an agent tool's structured content holds (see run-result.ts), with the typed answer's schema when the agent has one. */
function outputSchemaOf(dataSchema: Record<string, unknown>): Tool['outputSchema'] {
  return {
    type: 'object',
    properties: {
      runId: { type: 'string' },
      status: { type: 'string', enum: ['completed', 'max_iterations', 'budget_exhausted'] },
      output: { type: 'string', description: "The answer's JSON text" },
      data: dataSchema,
      iterations: { type: 'integer' },
      usage: { type: 'object' },
      cost: { type: 'number' },
    },
    required: ['runId', 'status', 'output', 'data', 'iterations', 'usage'],
  };
}

const agentInput = z
  .object({
    prompt: z.string().min(1).describe('What the agent should do'),
    sessionId: z.string().min(1).optional().describe("The caller's session id, passed to the agent's tools as runtime context"),
    userId: z.string().min(1).optional().describe("The caller's user id, passed to the agent's tools as runtime context"),
  })
  .strict();

export function jsonSchemaOf(schema: ZodTypeAny): Record<string, unknown> {
  const { $schema: _ignored, ...json } = zodToJsonSchema(schema as never, { $refStrategy: 'none', target: 'jsonSchema7' }) as Record<string, unknown>;
  return json;
}

function inputSchema(schema: AnyZodObject): Tool['inputSchema'] {
  return jsonSchemaOf(schema) as Tool['inputSchema'];
}

/** Arguments that do not fit a tool's input (or a run's size limit) are a tool error the model can read and correct (MCP's rule for bad input). */
class InvalidArguments extends Error {}

function parsed<S extends AnyZodObject>(tool: string, schema: S, args: unknown): z.infer<S> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const reasons = result.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}` : `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
  );
  throw new InvalidArguments(`Invalid arguments for ${tool}: ${reasons.join('; ')}`);
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** What went wrong with a run tool, as the client reads it: an unknown run, a refused answer, or the error. */
function runToolError(error: unknown, args: unknown): CallToolResult {
  if (error instanceof WorkflowNotFoundError) return errorResult(`No run '${(args as { runId?: string }).runId}' was found.`);
  if (error instanceof RunRequestRejectedError) return errorResult(`The run refused: ${error.message}`);
  return errorResult((error as Error)?.message ?? String(error));
}

export interface AgentMcpServer {
  server: Server;
  /** Serves one connection (a server serves one): through OpenRequests, so approval forms have no timeout. */
  connect(transport: Transport): Promise<void>;
}

/**
 * An MCP server backed by Temporal: each agent is a tool (run as an MCP task when the client asks
 * for one, else followed to its end with progress and elicitations), and the run tools list,
 * read, answer and cancel runs. Every answer comes from Temporal, never from this process.
 */
export function createAgentMcpServer(options: { client: AgentClient; agents: McpAgent[] }): AgentMcpServer {
  const { client, agents } = options;
  const clash = agents.find((agent) => agent.name === FORK_TOOL || RUN_TOOLS.some((tool) => tool.name === agent.name));
  if (clash) throw new Error(`The agent '${clash.name}' has the name of a run tool of the MCP server; rename the agent.`);
  const agentNames = new Set(agents.map((agent) => agent.name));

  const startRun = async (request: Pick<CallToolRequest, 'params'>): Promise<string> => {
    const name = request.params.name;
    const args = parsed(name, agentInput, request.params.arguments);
    const id = `${MCP_RUN_PREFIX}${name}-${randomBytes(5).toString('hex')}`;
    try {
      const run = await client.start(name, { prompt: args.prompt, id, ...(args.sessionId ? { sessionId: args.sessionId } : {}), ...(args.userId ? { userId: args.userId } : {}) });
      return run.workflowId;
    } catch (error) {
      if (error instanceof StartInputTooLargeError) throw new InvalidArguments(error.message);
      throw error;
    }
  };
  /** fork_run: the fork started, or its refusal as a tool error (a task's: the request's error). */
  const startFork = async (request: Pick<CallToolRequest, 'params'>) => {
    const args = parsed(FORK_TOOL, forkInput, request.params.arguments);
    const started = await startForkRun(client, args, request.params.task !== undefined);
    if ('refused' in started) throw new InvalidArguments(started.refused);
    return { ...started, args };
  };
  const startTask = async (request: CallToolRequest): Promise<string> =>
    request.params.name === FORK_TOOL ? (await startFork(request)).run.workflowId : startRun(request);
  const store = new RunTaskStore(client, (request: Request) => startTask(request as CallToolRequest));

  const server = new Server(
    { name: 'durable-agent', version: PACKAGE_VERSION },
    {
      capabilities: { tools: {}, logging: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: store,
      defaultTaskPollInterval: TASK_POLL_INTERVAL_MS,
      instructions:
        'Each agent tool starts a durable agent run (a Temporal workflow). Calls that need a person are asked as elicitations ' +
        'when the client supports them; otherwise list_pending shows them and approve_call / deny_call / submit_result answer them. ' +
        "fork_run starts a new run from a run's conversation as it stood after one of its events (run_events numbers them).",
    },
  );

  const tools: Tool[] = [
    ...agents.map(
      (agent): Tool => ({
        name: agent.name,
        description: agent.description,
        inputSchema: inputSchema(agentInput),
        ...(agent.dataSchema ? { outputSchema: outputSchemaOf(agent.dataSchema) } : {}),
        execution: { taskSupport: 'optional' },
      }),
    ),
    { name: FORK_TOOL, description: FORK_TOOL_DESCRIPTION, inputSchema: inputSchema(forkInput), execution: { taskSupport: 'optional' }, annotations: { readOnlyHint: false } },
    ...RUN_TOOLS.map((tool): Tool => ({ name: tool.name, description: tool.description, inputSchema: inputSchema(tool.input), annotations: { readOnlyHint: tool.readOnly } })),
  ];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  const closed = new AbortController();
  server.onclose = () => closed.abort(new Error('the connection closed'));
  let requests: OpenRequests | undefined;
  const elicitor = (relatedRequestId?: RequestId) =>
    requests && supportsFormElicitation(server.getClientCapabilities()) ? { elicit: formElicitor(requests, relatedRequestId) } : {};

  type Extra = Parameters<Parameters<typeof server.setRequestHandler>[1]>[1];
  /** A run an agent tool or fork_run started, followed to its end for the call's answer. */
  const follow = (request: CallToolRequest, extra: Extra, run: AgentRun) => {
    const progressToken = request.params._meta?.progressToken;
    return followAgentCall(client, run, {
      signal: extra.signal,
      ...(progressToken !== undefined
        ? { progress: (progress, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }) }
        : {}),
      log: (data) => extra.sendNotification({ method: 'notifications/message', params: { level: 'warning', logger: 'durable-agent', data } }),
      ...elicitor(extra.requestId),
    });
  };

  const callTool = async (request: CallToolRequest, extra: Extra) => {
    const name = request.params.name;
    if (agentNames.has(name) || name === FORK_TOOL) {
      if (request.params.task) {
        const task = await store.createTask(request.params.task, extra.requestId, request);
        followTask({ server, store, run: client.get(task.taskId), signal: closed.signal, ...elicitor(), follow: (run, options) => followAgentCall(client, run, options) });
        return { task };
      }
      if (name !== FORK_TOOL) return follow(request, extra, client.get(await startRun(request)));
      const { run, conversation, args } = await startFork(request);
      return conversation ? conversationForkResult(run, args) : withForkNote(await follow(request, extra, run), run, args);
    }
    const tool = RUN_TOOLS.find((candidate) => candidate.name === name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'. Tools: ${tools.map((t) => t.name).join(', ')}`);
    const args = parsed(name, tool.input, request.params.arguments);
    try {
      return await tool.call(args as never, client);
    } catch (error) {
      return runToolError(error, args);
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await callTool(request, extra);
    } catch (error) {
      if (!(error instanceof InvalidArguments)) throw error;
      // A task cannot be made of bad arguments: that request fails as a whole.
      if (request.params.task) throw new McpError(ErrorCode.InvalidParams, error.message);
      return errorResult(error.message);
    }
  });
  return {
    server,
    connect: (transport) => {
      requests = new OpenRequests(transport);
      return server.connect(requests);
    },
  };
}
