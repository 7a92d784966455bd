import type { RichToolResult, ToolReturn } from '../toolkit/define-tool';
import { canonicalJson } from './canonical-json';
import type { RecordedCall } from './suite-schema';

/** A call the eval did not run, with the arguments it had. */
export interface SkippedCall {
  tool: string;
  input: unknown;
}

export function notRunText(tool: string): string {
  return `not run in eval: the case gives no result for ${tool}`;
}

export function notRecordedText(tool: string): string {
  return `not run in eval: the recording holds no call of ${tool} with these arguments`;
}

function errorOf(text: string): RichToolResult {
  return { blocks: [{ type: 'text', text }], isError: true };
}

/** A recorded result as the tool returns it again: the same text, state and content blocks. */
function replayed(result: RecordedCall['result']): ToolReturn {
  if (result.blocks) return { blocks: result.blocks as RichToolResult['blocks'], ...(result.isError ? { isError: true } : {}) };
  return result.isError ? errorOf(result.content) : result.content;
}

/**
 * What the tools of one case's runs answer with. Stubs: a tool with effects gives the case's
 * result for it (or an error result saying the case gives none); read-only tools run for real.
 * A recording: every tool answers with the recorded result of the same call (tool and arguments,
 * key order aside); a call the recording lacks is not run and counts as new behaviour.
 */
export class CaseTools {
  readonly notRun: SkippedCall[] = [];
  readonly newBehaviour: SkippedCall[] = [];
  private readonly used = new Set<number>();

  constructor(
    private readonly stubs: Record<string, unknown> | undefined,
    private readonly recording: readonly RecordedCall[] | undefined,
  ) {}

  get replays(): boolean {
    return this.recording !== undefined;
  }

  /** A stub's answer; `undefined` when the tool runs for real. */
  async stubbed(tool: string, readOnly: boolean, input: unknown): Promise<{ result: ToolReturn } | undefined> {
    if (readOnly) return undefined;
    if (!this.stubs || !(tool in this.stubs)) {
      this.notRun.push({ tool, input });
      return { result: errorOf(notRunText(tool)) };
    }
    const stub = this.stubs[tool];
    return { result: typeof stub === 'function' ? ((await (stub as (input: unknown) => unknown)(input)) as ToolReturn) : (stub as ToolReturn) };
  }

  /**
   * The recorded result of this call: the first unused entry of the same tool and arguments, else
   * (a call made more often than recorded) the last one that fits. `normalize` reads a recorded
   * input as the tool's schema does, so defaults the schema fills in do not tell them apart.
   */
  replay(tool: string, input: unknown, normalize: (recorded: unknown) => unknown): ToolReturn {
    const wanted = canonicalJson(input);
    let reuse: number | undefined;
    for (const [index, call] of (this.recording ?? []).entries()) {
      if (call.tool !== tool) continue;
      if (canonicalJson(call.input) !== wanted && canonicalJson(normalize(call.input)) !== wanted) continue;
      if (!this.used.has(index)) {
        this.used.add(index);
        return replayed(call.result);
      }
      reuse = index;
    }
    if (reuse !== undefined) return replayed(this.recording![reuse]!.result);
    this.newBehaviour.push({ tool, input });
    return errorOf(notRecordedText(tool));
  }
}

/** The tools of every case run in flight, by the workflow id of the case's run (its sub-agents' ids start with it and '/'). */
export class CaseToolsRegistry {
  private readonly byRun = new Map<string, CaseTools>();

  register(workflowId: string, tools: CaseTools): void {
    this.byRun.set(workflowId, tools);
  }

  unregister(workflowId: string): void {
    this.byRun.delete(workflowId);
  }

  of(workflowId: string): CaseTools | undefined {
    return this.byRun.get(workflowId.split('/')[0]!);
  }

  /** The case runs in flight (by workflow id). */
  running(): string[] {
    return [...this.byRun.keys()];
  }
}
