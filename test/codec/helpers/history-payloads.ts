import type { Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

/** A payload found in a history, with where it was: `<event attributes>.<field path>`. */
export interface FoundPayload {
  /** e.g. `workflowExecutionSignaledEventAttributes.input.payloads[0]`, `userMetadata.summary`. */
  path: string;
  payload: Payload;
}

function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && (value as Uint8Array).BYTES_PER_ELEMENT === 1;
}

function isPayload(value: unknown): value is Payload {
  const candidate = value as { metadata?: unknown; data?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.metadata === 'object' && isBytes(candidate.data);
}

/**
 * Every payload of every event, found by walking the events field by field (inputs, results,
 * signals, updates, markers, failures' encoded attributes and details, memos, headers, search
 * attributes, user metadata), not by knowing where each event type keeps them.
 */
export function historyPayloads(history: History): FoundPayload[] {
  const found: FoundPayload[] = [];
  const walk = (value: unknown, path: string) => {
    if (value === null || typeof value !== 'object' || isBytes(value)) return;
    if (isPayload(value)) {
      found.push({ path, payload: value });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    }
    for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key);
  };
  for (const event of history.events ?? []) walk(event, '');
  return found;
}

/**
 * Everything readable in the history without a key: every string field (failure messages, stack
 * traces, names) and every byte field read as UTF-8 (payload data and metadata as they are stored).
 */
export function plainTextOf(value: unknown): string[] {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') texts.push(node);
    else if (isBytes(node)) texts.push(Buffer.from(node).toString('utf8'));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(value);
  return texts;
}

/** `events[12].activityTaskCompletedEventAttributes.result.payloads[0]` → `activityTaskCompletedEventAttributes.result.payloads[]`. */
export function pathKind(path: string): string {
  return path.replace(/\[\d+\]/g, '[]').replace(/^\./, '');
}
