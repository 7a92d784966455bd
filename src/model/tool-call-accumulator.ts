import type { ToolCall } from '../common/messages';
import { argumentsText, isRealToolName, positionalCallId } from './tool-call-parts';

export { isRealToolName } from './tool-call-parts';

/** One streamed tool-call fragment, typed loosely because providers send malformed ones. */
export interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

interface PendingCall {
  index: number | undefined;
  order: number;
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

/**
 * Rebuilds tool calls from streamed deltas.
 *
 * A delta joins the call that already has its id; else the latest call at its index (the latest
 * call at all when it has no index), unless it is the head of another call: a different id and a
 * real name, as from providers that reuse one index for several calls, or the same id with a real
 * name at another index, as from providers that repeat one id for several calls (the workflow
 * renames the repeat). A name without an id never starts a new call (AgentScope #1216); the first
 * id and the first real name win; arguments concatenate in arrival order.
 */
export class ToolCallAccumulator {
  private readonly calls: PendingCall[] = [];

  add(delta: ToolCallDelta | null | undefined): void {
    if (!delta || typeof delta !== 'object') return;
    const index = typeof delta.index === 'number' && Number.isFinite(delta.index) ? delta.index : undefined;
    const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
    const fn = delta.function && typeof delta.function === 'object' ? delta.function : undefined;

    const name = isRealToolName(fn?.name) ? fn.name : undefined;

    const call = this.findCall(index, id, name !== undefined) ?? this.startCall(index);
    if (id !== undefined && call.id === undefined) call.id = id;
    if (name !== undefined && call.name === undefined) call.name = name;
    call.arguments += argumentsText(fn?.arguments);
  }

  addAll(deltas: readonly (ToolCallDelta | null | undefined)[] | null | undefined): void {
    if (!Array.isArray(deltas)) return;
    for (const delta of deltas) this.add(delta);
  }

  /** The calls so far, ordered by index (then arrival); calls without an id get `call_<position>`. */
  toolCalls(): ToolCall[] {
    return [...this.calls]
      .filter((call) => call.id !== undefined || call.name !== undefined || call.arguments !== '')
      .sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity) || a.order - b.order)
      .map((call, position) => ({
        id: call.id ?? positionalCallId(position),
        name: call.name ?? '',
        arguments: call.arguments,
      }));
  }

  private findCall(index: number | undefined, id: string | undefined, named: boolean): PendingCall | undefined {
    if (id !== undefined) {
      const byId = this.callWithId(id, index);
      const repeatsId = byId !== undefined && named && index !== undefined && byId.index !== undefined && byId.index !== index;
      if (byId && !repeatsId) return byId;
    }
    const candidate = index !== undefined ? this.latest((call) => call.index === index) : this.latest(() => true);
    const startsAnother = id !== undefined && named && candidate?.id !== undefined;
    return startsAnother ? undefined : candidate;
  }

  /** The latest call with this id at this index, else the first call with this id. */
  private callWithId(id: string, index: number | undefined): PendingCall | undefined {
    const atIndex = index === undefined ? undefined : this.latest((call) => call.id === id && call.index === index);
    return atIndex ?? this.calls.find((call) => call.id === id);
  }

  private latest(match: (call: PendingCall) => boolean): PendingCall | undefined {
    for (let position = this.calls.length - 1; position >= 0; position--) {
      if (match(this.calls[position])) return this.calls[position];
    }
    return undefined;
  }

  private startCall(index: number | undefined): PendingCall {
    const call: PendingCall = { index, order: this.calls.length, id: undefined, name: undefined, arguments: '' };
    this.calls.push(call);
    return call;
  }
}
