import type { ZodTypeAny } from 'zod';
import type { CheckedNexusOutput } from '../common/contracts/nexus-output';
import type { PatternKind } from '../common/permissions';
import type { SubAgentSpec } from '../common/tools';
import type { AnyTool, SubAgentTool } from './define-tool';
import { toolInputSchema } from './json-schema';
import type { RegisteredTool } from './registered-tool';
import { validateToolInput } from './validate-input';
import { unknownKeys, unknownKeysMessage } from './unknown-keys';

const DEFAULT_PATTERN_FIELDS = ['command', 'path', 'file_path', 'url', 'pattern'];

function guessPatternKind(field: string | undefined): PatternKind | undefined {
  if (field === 'command') return 'command';
  if (field === 'path' || field === 'file_path') return 'path';
  return undefined;
}

function guessPatternField(tool: AnyTool): string | undefined {
  if (tool.patternField) return tool.patternField;
  const shape = (tool.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  return DEFAULT_PATTERN_FIELDS.find((field) => field in shape);
}

function subAgentSpec({ definition, ...settings }: SubAgentTool): SubAgentSpec {
  return { agent: definition.name, ...settings };
}

/** A nexusTool's result against its `output` schema: the parsed value, or the problems, one per wrong field. */
function outputCheck(schema: ZodTypeAny): (output: unknown) => CheckedNexusOutput {
  return (output) => {
    const parsed = schema.safeParse(output);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `/${issue.path.join('/')}` : 'the result'}: ${issue.message}`) };
  };
}

/** A code or built-in tool → the worker's registered form, with preset keys hidden from the model. */
export function registerCodeTool(tool: AnyTool, presetKeys: readonly string[] = []): RegisteredTool {
  const readOnly = tool.readOnly ?? false;
  // The whole schema (presets included, which the worker merges in): fields it lacks are refused, not dropped.
  const fullSchema = toolInputSchema(tool.input);
  const staticPermission = typeof tool.permission === 'function' ? 'dynamic' : tool.permission;
  return {
    spec: {
      name: tool.name,
      description: tool.description,
      parameters: toolInputSchema(tool.input, presetKeys),
      readOnly,
      concurrencySafe: tool.concurrencySafe ?? readOnly,
      external: tool.external ?? false,
      source: { kind: tool.source },
      ...(staticPermission ? { permission: staticPermission } : {}),
      ...(tool.timeout ? { timeout: tool.timeout } : {}),
      ...(tool.retry ? { retry: tool.retry } : {}),
      ...(tool.heartbeatTimeout ? { heartbeatTimeout: tool.heartbeatTimeout } : {}),
      ...(tool.totalTimeout ? { totalTimeout: tool.totalTimeout } : {}),
      ...(tool.subAgent ? { subAgent: subAgentSpec(tool.subAgent) } : {}),
      ...(tool.nexus ? { nexus: tool.nexus } : {}),
    },
    edits: tool.edits ?? false,
    patternField: guessPatternField(tool),
    patternKind: tool.patternKind ?? guessPatternKind(guessPatternField(tool)),
    permission: tool.permission,
    validate: (input) => {
      const extra = unknownKeys(fullSchema, input);
      if (extra.length > 0) return { ok: false, message: unknownKeysMessage(tool.name, extra, fullSchema) };
      return validateToolInput(tool.name, tool.input, input);
    },
    execute: tool.execute ? async (input, ctx) => tool.execute!(input, ctx) : undefined,
    ...(tool.nexusOutput ? { checkOutput: outputCheck(tool.nexusOutput) } : {}),
  };
}
