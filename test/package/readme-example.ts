/** The markdown of one section: from the given heading to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no heading '${heading}'`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = markdown.slice(at + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, 'm').exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The first ```ts block after the given heading of a markdown text. */
export function codeBlockAfter(markdown: string, heading: string): string {
  const block = /```ts\n([\s\S]*?)```/.exec(section(markdown, heading));
  if (!block?.[1]) throw new Error(`no \`\`\`ts block after '${heading}'`);
  return block[1];
}

/** The command lines of the ```sh blocks of a section, each as it is shown. */
export function shellCommandsIn(markdown: string, heading: string): string[] {
  return [...section(markdown, heading).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1]!.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#')),
  );
}
