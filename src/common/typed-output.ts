import type { JsonSchema, ToolSpec } from './tools';

/**
 * An agent's typed answer, as its description records it (`defineAgent({ output })`): the JSON
 * Schema the model is asked for, and how. Workers check answers with the agent's own zod schema;
 * the run keeps this copy so a model call needs no agents module to ask for the shape.
 */
export interface OutputSpec {
  /** JSON Schema of the answer (from the agent's zod schema). */
  schema: JsonSchema;
  /**
   * `response_format`: the provider's JSON-schema response format (OpenAI's `json_schema`, which
   * llama.cpp, vLLM and Ollama also take). `tool`: a `final_answer` tool whose arguments are the
   * answer, for endpoints without it.
   */
  via: 'response_format' | 'tool';
  /** Answers that do not fit, fed back with what is wrong, before the run fails. */
  maxRetries: number;
}

/** The tool the model answers through with `via: 'tool'`; an agent with such an output may have no tool of this name. */
export const FINAL_ANSWER_TOOL = 'final_answer';

/** The schema name sent with the response format (providers want `[a-zA-Z0-9_-]{1,64}`). */
export function responseFormatName(agent: string): string {
  return `${agent.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 57)}_answer`;
}

/**
 * The final-answer tool's parameters. Tool parameters must be an object, so any other answer
 * shape is wrapped in `{ answer }` (and unwrapped again when checked).
 */
export function finalAnswerParameters(schema: JsonSchema): JsonSchema {
  return schema.type === 'object' ? schema : { type: 'object', properties: { answer: schema }, required: ['answer'], additionalProperties: false };
}

/** The tool an agent whose output is asked `via: 'tool'` answers through; the workflow itself takes its call. */
export function finalAnswerToolSpec(output: OutputSpec): ToolSpec {
  return {
    name: FINAL_ANSWER_TOOL,
    description: 'Give your final answer, as this tool\'s arguments, once you have everything you need. Call it alone, as your last call.',
    parameters: finalAnswerParameters(output.schema),
    readOnly: true,
    concurrencySafe: false,
    external: false,
    source: { kind: 'builtin' },
    permission: 'allow',
  };
}

/** The answer inside a final-answer call's arguments. */
export function answerOfFinalCall(schema: JsonSchema, args: unknown): unknown {
  return schema.type === 'object' ? args : (args as { answer?: unknown } | null)?.answer;
}

/** What a worker says of an answer: the value that fits (JSON, as the model wrote it), or what is wrong, by path. */
export type CheckedOutput = { ok: true; value: unknown } | { ok: false; problems: string[] };

export interface CheckOutputInput {
  agent: string;
  /** The model's text (response format) or the final-answer call's arguments as the model wrote them (tool). */
  answer: { text: string } | { arguments: string };
}
