import type { PatternKind } from '../common/permissions';
import type { ToolSpec } from '../common/tools';
import type { ToolContext, ToolPermission, ToolReturn } from './define-tool';
import type { ParseOutcome } from './validate-input';
import type { CheckedNexusOutput } from '../common/contracts/nexus-output';

/**
 * A tool as the worker holds it, whatever its origin (code, built-in, MCP): its serializable
 * spec plus the worker-side behaviour the activities call.
 */
export interface RegisteredTool {
  spec: ToolSpec;
  /** Edits files: accept_edits mode allows it. */
  edits: boolean;
  /** The input field that rule patterns like `tool(src/**)` match. */
  patternField?: string;
  patternKind?: PatternKind;
  permission?: ToolPermission;
  /** Validate the model's (preset-merged) input; returns the parsed value or a message for the model. */
  validate(input: Record<string, unknown>): ParseOutcome<unknown>;
  execute?(input: unknown, ctx: ToolContext): Promise<ToolReturn>;
  /** A nexusTool's `output` schema: its operation's result checked (see activities/check-nexus-output.ts). */
  checkOutput?(output: unknown): CheckedNexusOutput;
}
