import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { ROOT, readDoc } from './markdown';

/** Markdown with its fenced blocks blanked, line numbers kept. */
function withoutFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const mark = /^\s*(`{3,})/.exec(line)?.[1];
      if (fence === undefined && mark) {
        fence = mark;
        return '';
      }
      if (fence !== undefined && mark && mark.length >= fence.length && /^\s*`+\s*$/.test(line)) fence = undefined;
      return fence === undefined && !mark ? line : '';
    })
    .join('\n');
}

/** The prose of a markdown text: no fenced blocks, inline code emptied (links there are not links). */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).replace(/`([^`\n]*)`/g, '$1').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

export interface DocLink {
  file: string;
  line: number;
  target: string;
}

/** Every relative link (`[text](path#anchor)`, `[text](#anchor)`) of a markdown file; web and mail links are left out. */
export function relativeLinks(file: string, markdown = readDoc(file)): DocLink[] {
  const links: DocLink[] = [];
  const lines = prose(markdown).split('\n');
  lines.forEach((text, index) => {
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

/** Why a link does not resolve, or undefined when it does: the file must exist, and a heading for its anchor. */
export function brokenLink(link: DocLink): string | undefined {
  const [path = '', anchor] = link.target.split('#', 2);
  const file = path === '' ? link.file : normalize(join(dirname(link.file), decodeURIComponent(path)));
  const absolute = join(ROOT, file);
  if (file.startsWith('..') || !existsSync(absolute)) return `${link.target}: no file ${file}`;
  if (anchor === undefined) return undefined;
  if (statSync(absolute).isDirectory() || !file.endsWith('.md')) return `${link.target}: an anchor into ${file}, which is not a markdown file`;
  return headingAnchors(readDoc(file)).has(anchor) ? undefined : `${link.target}: ${file} has no heading #${anchor}`;
}
