import * as fs from 'node:fs/promises';

const SNIFF_BYTES = 8192;

export type FileText =
  | { kind: 'text'; text: string; bom: boolean }
  | { kind: 'binary'; size: number }
  | { kind: 'not-utf8'; size: number }
  | { kind: 'too-large'; size: number };

/** A NUL byte near the start is how git and grep tell binary files apart; so do we. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The whole file as text, or why it cannot be shown as text. */
export async function readFileText(file: string, maxBytes: number): Promise<FileText> {
  const stat = await fs.stat(file);
  if (stat.isDirectory()) throw new Error('It is a folder, not a file; use list_files to see what it holds.');
  if (stat.size > maxBytes) return { kind: 'too-large', size: stat.size };
  const bytes = await fs.readFile(file);
  if (looksBinary(bytes)) return { kind: 'binary', size: bytes.length };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { kind: 'not-utf8', size: bytes.length };
  const bom = text.startsWith('\uFEFF');
  return { kind: 'text', text: bom ? text.slice(1) : text, bom };
}

export function describeUnreadable(display: string, file: Exclude<FileText, { kind: 'text' }>, maxBytes: number): string {
  switch (file.kind) {
    case 'binary':
      return `'${display}' is a binary file (${file.size} bytes); its content is not shown.`;
    case 'not-utf8':
      return `'${display}' is not UTF-8 text (${file.size} bytes); its content is not shown. Convert it (e.g. with iconv) to read it.`;
    case 'too-large':
      return `'${display}' is too large (${file.size} bytes, the limit is ${maxBytes}).`;
  }
}
