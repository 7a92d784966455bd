import type { AssistantMessage, Message } from '../common/messages';
import type { JsonSchema } from '../common/tools';
import type { ChatModelRequest, ModelToolDefinition } from './chat-model-types';
import { REPEAT_NOTE_START } from '../common/repeat-note';

/**
 * Tool calls constrained to the offered schemas, for servers that hold a reply to a JSON Schema
 * with a grammar (llama-server's `response_format: json_schema`, vLLM's guided decoding): the
 * request offers no `tools`; the system message lists them, and the reply must be one JSON object,
 * either `{"tool": NAME, "arguments": {…}}` whose arguments fit that tool's schema, or
 * `{"answer": …}` (the answer's schema for a typed answer, else text). A small model then cannot
 * name a tool that is not there, write arguments the schema refuses, or wrap the call in prose.
 * Earlier calls and their results stay in the conversation as they are (the chat template shows
 * them in the form the model was trained on). One call per reply.
 */

const CALL_ID_PREFIX = 'constrained_call_';

function callBranch(tool: ModelToolDefinition): JsonSchema {
  const { $schema: _schema, ...parameters } = tool.parameters as JsonSchema & { $schema?: unknown };
  return {
    type: 'object',
    properties: { tool: { const: tool.name }, arguments: parameters },
    required: ['tool', 'arguments'],
    additionalProperties: false,
  };
}

/** The one schema a constrained reply fits: a call of one of the tools, or the answer. */
export function constrainedReplySchema(tools: ModelToolDefinition[], answer?: JsonSchema): JsonSchema {
  const { $schema: _schema, ...answerSchema } = (answer ?? { type: 'string' }) as JsonSchema & { $schema?: unknown };
  return {
    oneOf: [...tools.map(callBranch), { type: 'object', properties: { answer: answerSchema }, required: ['answer'], additionalProperties: false }],
  };
}

function catalogue(tools: ModelToolDefinition[], typed: boolean): string {
  const lines = tools.map((tool) => `- ${tool.name}: ${tool.description} Arguments (JSON Schema): ${JSON.stringify(tool.parameters)}`);
  return [
    'You can call these tools:',
    ...lines,
    '',
    'Reply with one JSON object and nothing else:',
    '{"tool": "<tool name>", "arguments": {<the arguments>}} to call a tool (one call per reply; its result comes back to you), or',
    typed ? '{"answer": <your answer, as the answer schema says>} when you can answer.' : '{"answer": "<your answer to the user>"} when you can answer.',
    'Call a tool only when you need its result; never repeat a call you already made with the same arguments.',
  ].join('\n');
}

/** The conversation as the constrained model reads it: the tools listed in the system message. */
function shownMessages(messages: Message[], tools: ModelToolDefinition[], typed: boolean): Message[] {
  const extra = catalogue(tools, typed);
  const shown: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') shown.push({ role: 'system', content: `${message.content}\n\n${extra}` });
    else shown.push(message);
  }
  if (!shown.some((message) => message.role === 'system')) shown.unshift({ role: 'system', content: extra });
  return shown;
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Whether the model's last reply repeated a call it had made, answered from the earlier result: a
 * small model that does so calls it again and again, so the next reply is held to an answer.
 */
function repeatedLastCall(messages: Message[]): boolean {
  const last = messages.map((message) => message.role).lastIndexOf('assistant');
  return last >= 0 && messages.slice(last + 1).some((message) => message.role === 'tool' && message.content.startsWith(REPEAT_NOTE_START));
}

/** The request as sent when calls are constrained: no tools, the reply held to constrainedReplySchema (to an answer after a repeated call). */
export function constrainedRequest(request: Pick<ChatModelRequest, 'messages' | 'tools' | 'responseFormat'>): Pick<ChatModelRequest, 'messages' | 'tools' | 'responseFormat'> {
  const typed = request.responseFormat !== undefined;
  const answerOnly = repeatedLastCall(request.messages);
  const messages = shownMessages(request.messages, request.tools, typed);
  if (answerOnly) messages.push({ role: 'user', content: 'You already have the result of that call above. Answer now from the results you have.' });
  return {
    messages,
    tools: [],
    responseFormat: { name: 'reply', schema: constrainedReplySchema(answerOnly ? [] : request.tools, request.responseFormat?.schema) },
  };
}

/**
 * The reply read back: a call becomes a tool call, an answer the reply's text (a typed answer's
 * value as JSON text). A reply that is not such an object (cut off by the token limit, or a server
 * that ignored the schema) is left as it is, for the usual reading of text.
 */
export function readConstrainedReply(message: AssistantMessage): AssistantMessage {
  if (!message.content || (message.toolCalls?.length ?? 0) > 0) return message;
  const value = parsedOr(message.content.trim());
  if (!value || typeof value !== 'object' || Array.isArray(value)) return message;
  const reply = value as Record<string, unknown>;
  if (typeof reply.tool === 'string' && reply.arguments !== undefined) {
    return { ...message, content: null, toolCalls: [{ id: `${CALL_ID_PREFIX}0`, name: reply.tool, arguments: JSON.stringify(reply.arguments) }] };
  }
  if ('answer' in reply) return { ...message, content: typeof reply.answer === 'string' ? reply.answer : JSON.stringify(reply.answer) };
  return message;
}

/** Whether this call is constrained: the agent's model settings say so, or the worker does for this model; only when tools are offered. */
export function constrainsCalls(agentSetting: boolean | undefined, workerModels: readonly string[], model: string, offered: number): boolean {
  if (offered === 0) return false;
  if (agentSetting !== undefined) return agentSetting;
  return workerModels.includes('*') || workerModels.includes(model);
}
