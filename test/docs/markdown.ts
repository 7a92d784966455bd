import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** README.md and every guide under docs/, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const guides = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/**
 * What the comment right before a block says about it (the markdown conventions of this
 * repository, checked by test/docs/code-blocks.test.ts):
 *
 * - `<!-- fragment: client, run -->` before a ```ts block: not a whole module; it is compiled inside
 *   an async function, with the named values of test/docs/fragment-context.ts declared around it;
 *   `<!-- fragment -->` declares none.
 * - `<!-- not run: reason -->` before a shell block (or a block of a kind nothing checks, such as a
 *   Dockerfile or TOML): the reason it cannot run here, e.g. it needs a Docker engine.
 * - `<!-- run in the repository -->` before a shell block: it runs at the repository's root (it uses
 *   `npm run …`), not in a fresh empty folder.
 */
export type BlockMarker =
  | { kind: 'fragment'; context: string[] }
  | { kind: 'not-run'; reason: string }
  | { kind: 'in-repository' };

export interface CodeBlock {
  file: string;
  /** Line of the opening fence, 1-based. */
  line: number;
  /** The info string's first word: ts, sh, json, … ('' for none). */
  lang: string;
  /** The block's text, without its fences and without the indentation of a list item. */
  code: string;
  marker?: BlockMarker;
}

export function where(block: Pick<CodeBlock, 'file' | 'line'>): string {
  return `${block.file}:${block.line}`;
}

const FENCE = /^( *)(`{3,})\s*([\w+-]*)[^`]*$/;
const MARKER = /^\s*<!--\s*(fragment|not run|run in the repository)\s*(?::\s*([\s\S]*?))?\s*-->\s*$/;

function parseMarker(line: string | undefined, at: string): BlockMarker | undefined {
  const match = line === undefined ? null : MARKER.exec(line);
  if (!match) return undefined;
  const [, kind, rest = ''] = match;
  if (kind === 'fragment') return { kind: 'fragment', context: rest.split(',').map((name) => name.trim()).filter(Boolean) };
  if (kind === 'not run') {
    if (!rest.trim()) throw new Error(`${at}: <!-- not run --> needs a reason: <!-- not run: needs a Docker engine -->`);
    return { kind: 'not-run', reason: rest.trim() };
  }
  return { kind: 'in-repository' };
}

/** Every fenced code block of a markdown text, with the marker comment on the line before it (blank lines between allowed). */
export function codeBlocks(file: string, markdown = readDoc(file)): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    const body: string[] = [];
    let end = i + 1;
    for (; end < lines.length; end++) {
      const text = lines[end]!;
      if (/^`+$/.test(text.trim()) && text.trim().length >= fence.length) break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    if (end >= lines.length) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = parseMarker(lines[before], `${file}:${before + 1}`);
    blocks.push({ file, line: i + 1, lang: lang.toLowerCase(), code: body.join('\n'), ...(marker ? { marker } : {}) });
    i = end;
  }
  return blocks;
}

/** The marker comments of a text that stand before no code block: a typo or a block moved away from its note. */
export function strayMarkers(file: string, markdown = readDoc(file)): string[] {
  const lines = markdown.split('\n');
  const used = new Set(
    codeBlocks(file, markdown)
      .filter((block) => block.marker)
      .map((block) => {
        let before = block.line - 2;
        while (before >= 0 && lines[before]!.trim() === '') before--;
        return before;
      }),
  );
  return lines.flatMap((line, index) => (/^\s*<!--\s*(fragment|not run|run in)/.test(line) && !used.has(index) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}
