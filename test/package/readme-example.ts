/** The first ```ts block after the given heading of a markdown text. */
export function codeBlockAfter(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no heading '${heading}'`);
  const block = /```ts\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!block?.[1]) throw new Error(`no \`\`\`ts block after '${heading}'`);
  return block[1];
}
