/** Payloads a run accepts from outside are at most this large by default (Temporal's own limit is 2 MiB). */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

/** A deny reason reaches the model; longer ones are cut with a marker. */
export const MAX_REASON_CHARS = 2_000;

/** Tool-call ids, tool and group names: anything longer is not one of ours. */
export const MAX_NAME_CHARS = 256;

/** Bytes of the value as Temporal's JSON payload converter would write it. */
export function jsonByteLength(value: unknown): number {
  if (value === undefined) return 0;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  return text === undefined ? 0 : utf8Length(text);
}

/** UTF-8 length without TextEncoder, so it runs unchanged in the workflow sandbox. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** Why a payload is too large, or undefined when it fits. */
export function sizeProblem(value: unknown, maxBytes: number, what = 'the payload'): string | undefined {
  const bytes = jsonByteLength(value);
  if (bytes <= maxBytes) return undefined;
  const size = Number.isFinite(bytes) ? formatBytes(bytes) : 'a size that cannot be measured';
  return `${what} is ${size}, over the limit of ${formatBytes(maxBytes)} (${maxBytes} bytes)`;
}
