/**
 * Names from the OpenTelemetry GenAI semantic conventions (development status; the registry's
 * names as of semconv 1.37+, where `gen_ai.provider.name` replaced `gen_ai.system`).
 */
export const GenAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolDescription: 'gen_ai.tool.description',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  // Opt-in content attributes.
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

export const GenAiOperation = { chat: 'chat', executeTool: 'execute_tool' } as const;

/** The client speaks OpenAI's chat completions API, whichever server answers it. */
export const GEN_AI_PROVIDER = 'openai';

/** The project's own attributes and span events, beside the convention's. */
export const AgentAttr = {
  iteration: 'durable_agent.iteration',
  toolOutcome: 'durable_agent.tool.outcome',
  permissionDecision: 'durable_agent.permission.decision',
  permissionBy: 'durable_agent.permission.by',
  permissionReason: 'durable_agent.permission.reason',
} as const;

export const PERMISSION_EVENT = 'durable_agent.permission';

/** The convention's own switch for recording prompts, replies, tool arguments and results. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
