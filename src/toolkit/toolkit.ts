import type { ToolSpec } from '../common/tools';
import type { RegisteredTool } from './registered-tool';

/**
 * The tools of one agent on one worker. Names are unique: registering a second tool with a
 * taken name is an error, never a silent replacement.
 */
export class Toolkit {
  private readonly tools = new Map<string, RegisteredTool>();

  register(tool: RegisteredTool): void {
    const name = tool.spec.name;
    const existing = this.tools.get(name);
    if (existing) {
      throw new Error(
        `Tool name '${name}' is already registered (source: ${describeSource(existing.spec)}); ` +
          `the new tool (source: ${describeSource(tool.spec)}) needs another name.`,
      );
    }
    this.tools.set(name, tool);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  specs(): ToolSpec[] {
    return [...this.tools.values()].map((tool) => tool.spec);
  }
}

export function describeSource(spec: ToolSpec): string {
  return spec.source.kind === 'mcp' ? `MCP server '${spec.source.server}'` : spec.source.kind;
}
